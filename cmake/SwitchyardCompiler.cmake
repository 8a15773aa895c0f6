# Compiler launcher, warnings and sanitizers, applied through one interface target
# (switchyard_options) that every Switchyard target links, instead of global flags.

find_program(CCACHE_PROGRAM ccache)
# Paths inside the source tree are hashed relative to it, and the build directory is not hashed,
# so a clone in another folder (CI's, a fresh-clone check) reuses what this one compiled.
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=true
        ${CCACHE_PROGRAM})
endif()

if(SWITCHYARD_TSAN AND (SWITCHYARD_ASAN OR SWITCHYARD_UBSAN))
    message(FATAL_ERROR "SWITCHYARD_TSAN cannot be combined with SWITCHYARD_ASAN or SWITCHYARD_UBSAN")
endif()

add_library(switchyard_options INTERFACE)
target_compile_options(switchyard_options INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(SWITCHYARD_WERROR)
    target_compile_options(switchyard_options INTERFACE -Werror)
endif()
# Qt: no implicit conversions from const char* to QString, no foreach/emit keywords.
target_compile_definitions(switchyard_options INTERFACE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_KEYWORDS QT_NO_FOREACH
    QT_DISABLE_DEPRECATED_UP_TO=0x060400)

set(_sanitizers "")
if(SWITCHYARD_ASAN)
    list(APPEND _sanitizers address)
endif()
if(SWITCHYARD_UBSAN)
    list(APPEND _sanitizers undefined)
endif()
if(SWITCHYARD_TSAN)
    list(APPEND _sanitizers thread)
endif()
if(_sanitizers)
    list(JOIN _sanitizers "," _sanitize_flag)
    target_compile_options(switchyard_options INTERFACE -fsanitize=${_sanitize_flag} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(switchyard_options INTERFACE -fsanitize=${_sanitize_flag})
endif()
