#!/usr/bin/env bash
# tst_package: builds the Debian packages and the tar.gz from a built tree (installer/), checks
# their contents, control fields and metadata (dpkg-deb, lintian, desktop-file-validate,
# appstreamcli, systemd-analyze), installs them, runs the installed programs, starts the installed
# daemon with the packaged settings, asks /api/v1/health, stops it, then removes and purges.
#
# As root (CI) the packages go onto this machine with dpkg, maintainer scripts and all, and are
# purged at the end (also when a check fails). As another user they are unpacked into a throwaway
# root and the maintainer-script checks are skipped (said in the output).
#
# usage: tst_package.sh <build dir>
set -euo pipefail

build=$(cd "$1" && pwd)
work=$(mktemp -d /tmp/tst_package.XXXXXX)
failures=0
installed=0
daemon_pid=""

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }
check() { # check <description> <command...>
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

cleanup() {
    [ -n "$daemon_pid" ] && kill -KILL "$daemon_pid" 2>/dev/null || true
    if [ "$installed" = 1 ]; then
        dpkg --purge switchyard switchyardd >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "== building the packages"
(cd "$build" && cpack -B "$work/pkg" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture)
console_deb="$work/pkg/switchyard_${version}_${arch}.deb"
daemon_deb="$work/pkg/switchyardd_${version}_${arch}.deb"
tarball=$(ls "$work"/pkg/switchyard-"$version"-linux-*.tar.gz)
for f in "$console_deb" "$daemon_deb" "$tarball"; do
    check "made $(basename "$f")" test -s "$f"
done

echo "== file lists"
contents() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
contents "$console_deb" >"$work/console.list"
contents "$daemon_deb" >"$work/daemon.list"
tar tzf "$tarball" | sed 's|^[^/]*/|/|' >"$work/tar.list"
for path in /usr/bin/switchyard /usr/share/applications/io.github.switchyard.Switchyard.desktop \
    /usr/share/metainfo/io.github.switchyard.Switchyard.metainfo.xml \
    /usr/share/icons/hicolor/scalable/apps/switchyard.svg /usr/share/icons/hicolor/16x16/apps/switchyard.png \
    /usr/share/icons/hicolor/48x48/apps/switchyard.png /usr/share/icons/hicolor/256x256/apps/switchyard.png \
    /usr/share/man/man1/switchyard.1.gz /usr/share/switchyard/translations/console_zh_CN.qm \
    /usr/share/doc/switchyard/copyright /usr/share/doc/switchyard/changelog.gz; do
    check "switchyard holds $path" grep -qx "$path" "$work/console.list"
    check "the tar.gz holds $path" grep -qx "$path" "$work/tar.list"
done
for path in /usr/bin/switchyardd /usr/bin/switchyardctl /lib/systemd/system/switchyardd.service \
    /etc/switchyard/app.ini /usr/share/man/man1/switchyardd.1.gz /usr/share/man/man1/switchyardctl.1.gz \
    /usr/share/doc/switchyardd/copyright /usr/share/doc/switchyardd/installing.md; do
    check "switchyardd holds $path" grep -qx "$path" "$work/daemon.list"
    check "the tar.gz holds $path" grep -qx "$path" "$work/tar.list"
done
check "the console package has no daemon program" bash -c "! grep -q '/usr/bin/switchyardd\$' '$work/console.list'"

echo "== control fields"
for deb in "$console_deb" "$daemon_deb"; do
    name=$(dpkg-deb -f "$deb" Package)
    depends=$(dpkg-deb -f "$deb" Depends)
    echo "$name: Depends: $depends"
    echo "$name: Suggests: $(dpkg-deb -f "$deb" Suggests)"
    check "$name: version $version" test "$(dpkg-deb -f "$deb" Version)" = "$version"
    check "$name: depends on libqt6core6 (computed by shlibdeps)" grep -q "libqt6core6 (>=" <<<"$depends"
    check "$name: nothing from the build toolchain" bash -c "! grep -Eq -- '-dev\\b|cmake|ninja|ccache|g\\+\\+' <<<'$depends'"
    check "$name: the SQLite driver (a plugin) is a dependency" grep -q "libqt6sql6-sqlite" <<<"$depends"
    check "$name: redis-server and postgresql are only suggested" \
        bash -c "grep -q redis-server <<<'$(dpkg-deb -f "$deb" Suggests)' && ! grep -Eq 'redis-server|postgresql' <<<'$depends'"
done
check "switchyardd does not need Qt Widgets" bash -c "! grep -q libqt6widgets6 <<<'$(dpkg-deb -f "$daemon_deb" Depends)'"
check "switchyard needs Qt Widgets" grep -q libqt6widgets6 <<<"$(dpkg-deb -f "$console_deb" Depends)"
dpkg-deb -e "$daemon_deb" "$work/control"
check "app.ini is a conffile" grep -qx /etc/switchyard/app.ini "$work/control/conffiles"

echo "== lintian"
lintian --tag-display-limit 0 "$console_deb" "$daemon_deb" >"$work/lintian.log" 2>&1 || true
grep -v "running with root privileges" "$work/lintian.log" | sed 's/^/  /'
check "lintian reports no error" bash -c "! grep -q '^E: ' '$work/lintian.log'"

echo "== metadata"
mkdir -p "$work/x"
dpkg-deb -x "$console_deb" "$work/x"
dpkg-deb -x "$daemon_deb" "$work/x"
check "desktop-file-validate accepts the desktop entry" \
    desktop-file-validate "$work/x/usr/share/applications/io.github.switchyard.Switchyard.desktop"
desktop="$work/x/usr/share/applications/io.github.switchyard.Switchyard.desktop"
check "the desktop entry: Categories=System;Monitor;Qt;" grep -qx 'Categories=System;Monitor;Qt;' "$desktop"
check "the desktop entry: TryExec and a Connect action" \
    bash -c "grep -qx 'TryExec=switchyard' '$desktop' && grep -qx 'Actions=Connect;' '$desktop' && grep -qx 'Exec=switchyard --ask-connect' '$desktop'"
check "appstreamcli validates the metainfo" \
    appstreamcli validate --no-net --pedantic "$work/x/usr/share/metainfo/io.github.switchyard.Switchyard.metainfo.xml"
metainfo="$work/x/usr/share/metainfo/io.github.switchyard.Switchyard.metainfo.xml"
check "the metainfo names this release and a screenshot" \
    bash -c "grep -q '<release version=\"$version\"' '$metainfo' && grep -q '<screenshot' '$metainfo'"
unit="$work/x/lib/systemd/system/switchyardd.service"
check "the unit runs the installed daemon" grep -qx \
    'ExecStart=/usr/bin/switchyardd --config /etc/switchyard/app.ini --data-dir /var/lib/switchyard' "$unit"
check "the unit is not enabled by default (no preset, no link in the package)" \
    bash -c "! grep -q 'wants/' '$work/daemon.list'"
systemd-analyze security --offline=true "$unit" >"$work/security.log" 2>&1 || true
tail -n 1 "$work/security.log" | sed 's/^/  /'
check "systemd-analyze security scores the unit at most 2.0 (OK)" \
    bash -c "systemd-analyze security --offline=true --threshold=20 '$unit' >/dev/null 2>&1"
for program in switchyard switchyardd switchyardctl; do
    page="$work/x/usr/share/man/man1/$program.1.gz"
    check "man page of $program: NAME, SYNOPSIS, OPTIONS" \
        bash -c "zcat '$page' | grep -q '^\\.SH NAME' && zcat '$page' | grep -q '^\\.SH SYNOPSIS' && zcat '$page' | grep -q -i '^\\.SH OPTIONS\\|^\\.SH COMMANDS'"
done
check "the daemon's man page lists --config" bash -c "zcat '$work/x/usr/share/man/man1/switchyardd.1.gz' | grep -q 'config'"
sample="$work/x/etc/switchyard/app.ini"
check "the sample app.ini lists [server] HTTP_PORT at its default" grep -qx ';HTTP_PORT = 3300' "$sample"
check "the sample app.ini has only comments and section headers" \
    bash -c "! grep -Ev '^(;.*|\\[[a-z_.]+\\]|)\$' '$sample'"

echo "== installing"
if [ "$(id -u)" -eq 0 ]; then
    root=""
    dpkg --purge switchyard switchyardd >/dev/null 2>&1 || true
    installed=1
    if dpkg -i "$console_deb" "$daemon_deb" >"$work/dpkg.log" 2>&1; then
        pass "dpkg -i installs both packages with their dependencies present"
    else
        cat "$work/dpkg.log"
        fail "dpkg -i"
        exit 1
    fi
    check "postinst made the system user switchyard" bash -c "getent passwd switchyard | grep -q nologin"
    check "postinst made /var/lib/switchyard for it (0750)" \
        test "$(stat -c '%U:%G %a' /var/lib/switchyard)" = "switchyard:switchyard 750"
    check "app.ini is readable by the daemon's group only (0640 root:switchyard)" \
        test "$(stat -c '%U:%G %a' /etc/switchyard/app.ini)" = "root:switchyard 640"
    run_as=(setpriv --reuid=switchyard --regid=switchyard --init-groups --) # execs: the pid is the daemon's
else
    echo "SKIP: not root: unpacked into $work/x instead; the maintainer scripts are not run"
    root="$work/x"
    mkdir -p "$work/data"
    run_as=()
fi
daemon="$root/usr/bin/switchyardd"
data=${root:+$work/data}
data=${data:-/var/lib/switchyard}

check "switchyardd --version" bash -c "'$daemon' --version | grep -qx 'switchyard $version'"
check "switchyardctl --help" bash -c "'$root/usr/bin/switchyardctl' --help | grep -q Usage"
check "switchyard --version without a display" \
    bash -c "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '$root/usr/bin/switchyard' --version | grep -qx 'switchyard $version'"
check "switchyard --help without a display" \
    bash -c "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '$root/usr/bin/switchyard' --help | grep -q -- '--connect'"
missing_out=$("$daemon" --config /nonexistent/app.ini 2>&1) && missing_rc=0 || missing_rc=$?
check "a missing app.ini exits 2 (the unit does not restart it) naming the file" \
    bash -c "[ $missing_rc -eq 2 ] && grep -q /nonexistent/app.ini <<<'$missing_out'"

echo "== running the installed daemon"
"${run_as[@]}" "$daemon" --config "$root/etc/switchyard/app.ini" --data-dir "$data" --port 0 >"$work/daemon.log" 2>&1 &
daemon_pid=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's|.*admin API on http://127.0.0.1:\([0-9]*\)/api/v1.*|\1|p' "$work/daemon.log")
    [ -n "$port" ] && break
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    cat "$work/daemon.log"
    fail "the installed daemon started"
    exit 1
fi
pass "the installed daemon listens on port $port"
check "GET /api/v1/health answers ok" \
    bash -c "curl -fsS 'http://127.0.0.1:$port/api/v1/health' | grep -q '\"status\":\"ok\"'"
check "the first admin token is in the data directory (0600)" test "$(stat -c %a "$data/admin-token")" = 600
kill -TERM "$daemon_pid"
daemon_rc=0
wait "$daemon_pid" || daemon_rc=$?
daemon_pid=""
check "SIGTERM stops it cleanly (exit 0, 'terminated cleanly')" \
    bash -c "[ $daemon_rc -eq 0 ] && grep -q 'terminated cleanly' '$work/daemon.log'"
grep -q "terminated cleanly" "$work/daemon.log" || sed 's/^/  /' "$work/daemon.log"

if [ "$installed" = 1 ]; then
    echo "== removing and purging"
    dpkg -r switchyard switchyardd >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -r"; }
    left=()
    while read -r path; do
        [ -f "$path" ] && [ "$path" != /etc/switchyard/app.ini ] && left+=("$path")
    done < <(cat "$work/console.list" "$work/daemon.list")
    check "a remove leaves none of the packages' files but the conffile (left: ${left[*]:-none})" test "${#left[@]}" -eq 0
    check "a remove keeps the conffile" test -f /etc/switchyard/app.ini
    check "a remove keeps the data directory" test -d /var/lib/switchyard
    dpkg --purge switchyard switchyardd >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg --purge"; }
    installed=0
    check "a purge removes the settings" test ! -e /etc/switchyard
    check "a purge removes the data directory" test ! -e /var/lib/switchyard
    check "dpkg knows neither package any more" \
        bash -c "! dpkg-query -W -f='\${Status}\n' switchyard switchyardd 2>/dev/null | grep -q installed"
fi

echo "== $failures failed"
[ "$failures" -eq 0 ]
