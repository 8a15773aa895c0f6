# switchyard_check_layering(<target> <sources...>)
#
# Runs cmake/CheckLayering.cmake over the calling folder before <target> builds: no Qt GUI header
# (the engine and the admin layer run headless), no private header of another subsystem, and no
# engine header in the console but the version and Status (it sees values through the admin
# layer). The check re-runs when a listed source or the script changes.
function(switchyard_check_layering target)
    set(_sources ${ARGN})
    list(TRANSFORM _sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
    set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/layering.stamp)
    add_custom_command(
        OUTPUT ${_stamp}
        COMMAND ${CMAKE_COMMAND} -DTOP=${PROJECT_SOURCE_DIR} -DROOT=${CMAKE_CURRENT_SOURCE_DIR} -DSTAMP=${_stamp}
                -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
        DEPENDS ${_sources} ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
        COMMENT "Checking the layering of ${target} (no GUI headers, private headers stay private)"
        VERBATIM)
    add_custom_target(${target}_layering DEPENDS ${_stamp})
    add_dependencies(${target} ${target}_layering)
endfunction()
