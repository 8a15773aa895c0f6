#include "embeddedinstance.h"

#include "admin/startup.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace Switchyard::Console {

QString EmbeddedInstance::defaultConfigPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)).filePath(QStringLiteral("switchyard/app.ini"));
}

Result<std::unique_ptr<EmbeddedInstance>> EmbeddedInstance::open(const EmbeddedOptions &options, QObject *parent)
{
    std::unique_ptr<EmbeddedInstance> instance(new EmbeddedInstance(parent));
    instance->m_configPath = options.configPath.isEmpty() ? defaultConfigPath() : options.configPath;
    const QString readPath = options.configPath.isEmpty() && !QFileInfo::exists(instance->m_configPath) ? QString() : instance->m_configPath;

    // Once without the kept values, for the data directory they live in.
    Result<EngineConfig> first = Admin::loadEngineConfig(readPath, options.dataDir);
    if (!first)
        return first.status();
    instance->m_lock = std::make_unique<QLockFile>(QDir(first->dataPath()).filePath(QStringLiteral("switchyard.lock")));
    if (Status locked = Admin::lockDataDirectory(first->dataPath(), *instance->m_lock); !locked) {
        instance->m_lock.reset();
        return locked;
    }
    instance->m_vault = std::make_unique<SecretVault>(first->dataPath(), options.useKeychain);
    std::vector<Admin::KeptSetting> kept = instance->m_vault->load();
    instance->m_problems = instance->m_vault->problems();
    const EventSourceSettings *source = first->eventSource(QStringLiteral("default"));
    // A forge needs a secret to sign with (without one only a token could post events): made on
    // the first start, kept before it is used. Never again while one is listed, even when it could
    // not be read now (a forge holds it).
    const QString section = QStringLiteral("event_source.default"), key = QStringLiteral("SECRET");
    if (source && source->secret.isEmpty() && !instance->m_vault->isListed(section, key)) {
        const QByteArray secret = SecretVault::newSecret();
        if (Status stored = instance->m_vault->store(section, key, secret); !stored)
            instance->m_problems.append(tr("no webhook secret was made for the default event source: %1").arg(stored.message()));
        kept = instance->m_vault->kept();
    }
    Result<EngineConfig> config = Admin::loadEngineConfig(readPath, options.dataDir, kept);
    if (!config)
        return config.status();
    instance->m_backend = std::make_unique<Admin::LocalBackend>(std::move(config).value(), options.backend);
    instance->m_server = std::make_unique<EmbeddedServer>(*instance->m_backend, options.port);
    return instance;
}

EmbeddedInstance::~EmbeddedInstance()
{
    m_server.reset(); // the API stops before the engine
    m_backend.reset();
}

void EmbeddedInstance::start()
{
    m_backend->start();
}

} // namespace Switchyard::Console
