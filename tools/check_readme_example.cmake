# Fails when README.md no longer shows examples/example.c verbatim, so that
# the example readers copy is the one the build compiles and runs.
file(READ "${SRC}/README.md" readme)
file(READ "${SRC}/examples/example.c" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not contain examples/example.c verbatim")
endif()
