# Fails when README.md no longer shows the examples verbatim, so that the
# examples readers copy are the ones the build compiles and runs.
file(READ "${SRC}/README.md" readme)
foreach(name example.c recurrence.c)
  file(READ "${SRC}/examples/${name}" example)
  string(FIND "${readme}" "${example}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md does not contain examples/${name} verbatim")
  endif()
endforeach()
