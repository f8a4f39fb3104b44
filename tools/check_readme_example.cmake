# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.20) # IN_LIST (run with cmake -P)
# Fails when the documentation no longer shows the examples verbatim, so that
# the examples readers copy are the ones the build compiles and runs: the
# README keeps the first example, docs/examples.md the other programs, and
# docs/algorithms.md the compaction and recurrence examples.
set(pairs "README.md:example.c" "docs/algorithms.md:recurrence.c" "docs/algorithms.md:compact.c"
    "docs/examples.md:csr_rows.c" "docs/examples.md:box_blur.c" "docs/examples.md:multi_device.c"
    "docs/examples.md:mpi_scan.c" "docs/examples.md:mpi_sort.c" "docs/examples.md:sort_pairs.c"
    "docs/examples.md:merge_events.c" "docs/examples.md:grades.c")
# every program in examples/ must be one of them
set(shown "")
foreach(pair ${pairs})
  string(REGEX REPLACE "^.*:" "" name "${pair}")
  list(APPEND shown "${name}")
endforeach()
file(GLOB programs RELATIVE "${SRC}/examples" "${SRC}/examples/*.c")
foreach(name ${programs})
  if(NOT name IN_LIST shown)
    message(FATAL_ERROR "examples/${name} is shown on no page that this check knows of")
  endif()
endforeach()
foreach(pair ${pairs})
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
# The README is a page for users: at most 250 lines (figures' history,
# tuning notes and further examples belong in docs/)
file(STRINGS "${SRC}/README.md" readme_lines)
list(LENGTH readme_lines readme_count)
if(readme_count GREATER 250)
  message(FATAL_ERROR "README.md has ${readme_count} lines; a user page has at most 250 (move the rest to docs/)")
endif()
