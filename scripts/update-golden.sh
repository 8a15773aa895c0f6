#!/usr/bin/env bash
# Rewrites the golden files under tests/golden/ from what the code produces now, then shows what
# changed. A changed golden file is a changed promise to receivers and mail readers: read every
# line of the diff against Gitea's behaviour (docs/webhooks.md, docs/mail.md name the sources)
# before committing it. Arguments narrow the tests (a ctest -R regex), e.g. `webhookgolden`.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${SWITCHYARD_BUILD_DIR:-build}"
tests="${1:-^(tst_webhooknotifier|tst_webhookchannels|tst_webhookgolden|tst_mailgolden)$}"
scripts/build.sh >/dev/null
# Twice: the notifier's payloads are the channels' and the requests' inputs.
for pass in 1 2; do
    SWITCHYARD_UPDATE_GOLDEN=1 ctest --test-dir "$build_dir" -R "$tests" --output-on-failure >/dev/null || true
done
ctest --test-dir "$build_dir" -R "$tests" --output-on-failure
git status --short -- tests/golden
git diff --stat -- tests/golden
