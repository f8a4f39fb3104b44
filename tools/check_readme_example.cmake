# SPDX-License-Identifier: MIT
# Fails when the documentation no longer shows the examples verbatim, so that
# the examples readers copy are the ones the build compiles and runs.
foreach(pair "README.md:example.c" "docs/algorithms.md:recurrence.c" "docs/algorithms.md:compact.c"
        "README.md:csr_rows.c" "README.md:box_blur.c" "README.md:multi_device.c"
        "README.md:mpi_scan.c" "README.md:sort_pairs.c")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 page)
  list(GET pair 1 name)
  file(READ "${SRC}/${page}" text)
  file(READ "${SRC}/examples/${name}" example)
  string(FIND "${text}" "${example}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${page} does not contain examples/${name} verbatim")
  endif()
endforeach()
