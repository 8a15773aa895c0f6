// app.ini (src/engine/settings): the INI reader, then the whole configuration on top of it
// (EngineConfig::load, every configured queue's settings). Properties: errors and warnings name
// the file and a line that exists; every entry's line exists.

#include "fuzzcheck.h"

#include "engine/settings/config.h"
#include "engine/settings/inifile.h"
#include "engine/settings/settings.h"

#include <cstddef>
#include <cstdint>

using namespace Switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16 * 1024) // a config file; larger inputs only slow the search down
        return -1;
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString fileName = QStringLiteral("app.ini");
    const Result<IniFile> ini = IniFile::parse(fileName, text);
    if (!ini) {
        FUZZ_CHECK(ini.status().message().startsWith(fileName + u':'), ini.status().message());
        return 0;
    }
    const qsizetype lines = text.count('\n') + 1;
    for (const IniSection &section : ini->sections()) {
        for (const IniEntry &entry : section.entries)
            FUZZ_CHECK(entry.line >= 1 && entry.line <= lines, QStringLiteral("%1 at line %2 of %3").arg(entry.key).arg(entry.line).arg(lines));
    }
    for (const QString &warning : ini->warnings())
        FUZZ_CHECK(warning.startsWith(fileName + u':'), warning);

    // Paths that do not exist: load() only resolves them, it must not create anything.
    const Result<EngineConfig> config =
        EngineConfig::load(Settings(*ini), QString(), QStringLiteral("/nonexistent/switchyard-fuzz"));
    if (!config) {
        FUZZ_CHECK(!config.status().message().isEmpty(), QStringLiteral("an error without a message"));
        return 0;
    }
    for (const QString &name : config->configuredQueueNames()) {
        const Result<QueueSettings> queue = config->queueSettings(name);
        FUZZ_CHECK(queue, QStringLiteral("[queue.%1] passed load() but not queueSettings(): %2").arg(name, queue.status().message()));
    }
    return 0;
}
