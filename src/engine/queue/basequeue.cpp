#include "basequeue.h"

#include "channelqueue.h"
#include "dummyqueue.h"
#include "levelqueue.h"
#include "queuelogging.h"
#include "redisqueue.h"

#include "engine/settings/config.h"

#include <QDir>

Q_LOGGING_CATEGORY(lcQueue, "switchyard.queue", QtInfoMsg)

namespace Switchyard {

Status BaseQueue::pushItems(const CancelToken &cancel, const std::vector<QByteArray> &items)
{
    for (size_t i = 0; i < items.size(); ++i) {
        const Status pushed = pushItem(cancel, items[i]);
        if (!pushed && !isAlreadyInQueue(pushed))
            return Status(pushed.code(), QStringLiteral("%1 (%2 of %3 item(s) accepted)").arg(pushed.message()).arg(i).arg(items.size()));
    }
    return Status::ok();
}

Result<std::unique_ptr<BaseQueue>> createBaseQueue(const CancelToken &cancel, const QueueSettings &settings, bool unique,
                                                   const BaseQueueOptions &options)
{
    const QString &type = settings.type;
    if (type == QLatin1String("dummy") || type == QLatin1String("immediate"))
        return std::unique_ptr<BaseQueue>(std::make_unique<DummyQueue>(unique));
    if (type == QLatin1String("channel"))
        return std::unique_ptr<BaseQueue>(std::make_unique<ChannelQueue>(settings.name, settings.length, unique, options.timing));
    if (type == QLatin1String("level")) {
        const QString directory = QDir(settings.dataDir).filePath(settings.queueFullName());
        Result<std::unique_ptr<LevelQueue>> queue = LevelQueue::open(cancel, settings.name, directory, settings.length,
                                                                     unique, settings.sync, options.timing,
                                                                     options.reportDamage);
        if (!queue)
            return queue.status();
        return std::unique_ptr<BaseQueue>(std::move(queue).value());
    }
    if (type == QLatin1String("redis")) {
        Result<RedisAddress> address = RedisAddress::parse(settings.connStr);
        if (!address)
            return Status::invalidArgument(QStringLiteral("[queue.%1] CONN_STR: %2").arg(settings.name, address.status().message()));
        QString instance = options.instanceId;
        if (instance.isEmpty())
            return Status::invalidArgument(QStringLiteral("queue %1: a Redis queue needs an instance id").arg(settings.name));
        Result<std::unique_ptr<RedisQueue>> queue =
            RedisQueue::open(cancel, settings.name, *address, settings.queueFullName(), settings.setFullName(),
                             settings.length, unique, std::move(instance), options.timing);
        if (!queue)
            return queue.status();
        return std::unique_ptr<BaseQueue>(std::move(queue).value());
    }
    return Status::invalidArgument(QStringLiteral("[queue.%1] TYPE = \"%2\" is not valid; valid values: %3")
                                       .arg(settings.name, type, EngineConfig::queueTypes().join(QStringLiteral(", "))));
}

} // namespace Switchyard
