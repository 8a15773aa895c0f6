# switchyard_add_test(<name> SOURCES <files...> [LABELS <labels...>] [LIBRARIES <libs...>] [TIMEOUT <s>])
#
# One QtTest executable per unit, registered with ctest under its name. Labels: unit (fast, no
# outside process), redis, postgres, gui, slow — `ctest -L unit` is the quick loop, CI runs all.
function(switchyard_add_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LABELS;LIBRARIES" ${ARGN})
    if(NOT ARG_LABELS)
        set(ARG_LABELS unit)
    endif()
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 120)
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE Switchyard::Engine Qt6::Test switchyard_options ${ARG_LIBRARIES})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    if(SWITCHYARD_ASAN OR SWITCHYARD_UBSAN OR SWITCHYARD_TSAN)
        # Memory figures (RSS bounds) mean nothing beside a sanitizer's shadow memory and quarantine.
        target_compile_definitions(${name} PRIVATE SWITCHYARD_SANITIZED=1)
    endif()
    add_test(NAME ${name} COMMAND ${name})
    set(_environment "QT_QPA_PLATFORM=offscreen" "QT_LOGGING_RULES=switchyard.*.debug=false")
    if(SWITCHYARD_TSAN)
        list(APPEND _environment "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1 suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp")
    endif()
    if(SWITCHYARD_ASAN OR SWITCHYARD_UBSAN)
        list(APPEND _environment "UBSAN_OPTIONS=print_stacktrace=1 halt_on_error=1")
    endif()
    set_tests_properties(${name} PROPERTIES
        LABELS "${ARG_LABELS}"
        TIMEOUT ${ARG_TIMEOUT}
        ENVIRONMENT "${_environment}")
endfunction()

# switchyard_add_test_variant(<test name> <executable> [LABELS <labels...>] [ENVIRONMENT <VAR=value...>])
#
# Runs an existing test executable once more under another name and environment — one conformance
# suite, several backends.
function(switchyard_add_test_variant name executable)
    cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;ENVIRONMENT" ${ARGN})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 120)
    endif()
    get_test_property(${executable} ENVIRONMENT _base_environment)
    add_test(NAME ${name} COMMAND ${executable})
    set_tests_properties(${name} PROPERTIES
        LABELS "${ARG_LABELS}"
        TIMEOUT ${ARG_TIMEOUT}
        ENVIRONMENT "${_base_environment};${ARG_ENVIRONMENT}")
endfunction()
