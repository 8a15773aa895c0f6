# Checks the layering of the engine and the admin layer; a build step of each library.
# Usage: cmake -DTOP=<source dir> -DROOT=src/engine -DSTAMP=out.stamp -P CheckLayering.cmake
# (ROOT = the checked library's folder; rules 2 and 3 read the whole tree)
#
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
# 1. No source under ROOT includes a Qt GUI header: the engine and the admin layer run headless
#    in the daemon.
# 2. Each subsystem has public headers; its other headers are private to its folder. A file under
#    src/ outside a subsystem's folder may include only that subsystem's public headers (tests may
#    reach further: they test the backends themselves).
set(_forbidden "QtWidgets|QtGui|QtCharts|QWidget|QApplication|QGuiApplication|QMainWindow|QDialog|QPixmap|QIcon|QColor|QImage")
file(GLOB_RECURSE _files "${ROOT}/*.h" "${ROOT}/*.cpp" "${ROOT}/*.in")
set(_violations "")
foreach(_file IN LISTS _files)
    file(STRINGS "${_file}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${_forbidden})")
    foreach(_line IN LISTS _lines)
        string(APPEND _violations "\n  ${_file}: ${_line}")
    endforeach()
endforeach()
if(ROOT MATCHES "/ui$")
    set(_violations "") # the console is the GUI
endif()
if(_violations)
    message(FATAL_ERROR "${ROOT} must not depend on Qt GUI/Widgets (engine and admin layers run headless):${_violations}")
endif()

# subsystem -> its public headers (core, settings and redis are public throughout). The *stats.h /
# *types.h / lockinfo.h headers hold the subsystem's values (rows, figures) without its classes.
set(_public_queue "queue.h;queuestats.h;queuehistory.h")
set(_public_globallock "globallock.h;lockinfo.h")
set(_public_cache "cache.h;cachestats.h")
set(_public_cron "cron.h;schedule.h;crontypes.h")
set(_public_qos "qos.h;qostypes.h")
set(_public_store "store.h;journals.h;instances.h")
set(_public_pubsub "pubsub.h")
set(_public_notify "notify.h;notifymethods.h")
set(_public_forge "forgetypes.h;forgedata.h")
set(_public_events "events.h;eventtypes.h")
set(_public_notifications "notifications.h;notificationtypes.h;feed.h;auditnotifier.h")
set(_public_webhook "webhook.h;hookevents.h;notifier.h")
set(_src "${TOP}/src")
set(_top "${TOP}")
file(GLOB_RECURSE _all "${_src}/*.h" "${_src}/*.cpp" "${_top}/ui/*.h" "${_top}/ui/*.cpp")
foreach(_file IN LISTS _all)
    file(STRINGS "${_file}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"engine/(queue|globallock|cache|cron|qos|store|pubsub|notify|forge|events|notifications|webhook)/")
    foreach(_line IN LISTS _lines)
        string(REGEX MATCH "engine/([a-z]+)/([A-Za-z0-9_]+\\.h)" _match "${_line}")
        set(_subsystem "${CMAKE_MATCH_1}")
        set(_header "${CMAKE_MATCH_2}")
        if(_file MATCHES "/engine/${_subsystem}/")
            continue() # inside its own folder
        endif()
        if(NOT _header IN_LIST _public_${_subsystem})
            string(APPEND _violations "\n  ${_file}: ${_line} (public: ${_public_${_subsystem}})")
        endif()
    endforeach()
endforeach()
if(_violations)
    message(FATAL_ERROR "Private headers included from outside their subsystem:${_violations}")
endif()

# 3. The console sees values only: a file under ui/ includes no engine header but the version and
#    the Status type (pages reach the engine through the admin layer's values and AdminBackend;
#    the embedded engine is made by the admin layer's LocalBackend).
set(_ui_allowed "engine/core/status.h;engine/core/version.h")
file(GLOB_RECURSE _ui "${_top}/ui/*.h" "${_top}/ui/*.cpp")
foreach(_file IN LISTS _ui)
    file(STRINGS "${_file}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"engine/")
    foreach(_line IN LISTS _lines)
        string(REGEX MATCH "engine/[A-Za-z0-9_/]+\\.h" _header "${_line}")
        if(NOT _header IN_LIST _ui_allowed)
            string(APPEND _violations "\n  ${_file}: ${_line} (the console includes only ${_ui_allowed})")
        endif()
    endforeach()
endforeach()
if(_violations)
    message(FATAL_ERROR "The console reaches into the engine:${_violations}")
endif()
file(TOUCH "${STAMP}")
