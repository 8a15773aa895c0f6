// What instances agree on for cron: tick claims and pauses — in a local JSON file for one
// instance, in Redis for several. (The store's coordinator is in engine/store.)
#include "cron.h"

#include "engine/redis/redisconnection.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QSet>

#include <mutex>

Q_DECLARE_LOGGING_CATEGORY(lcCron)

namespace Switchyard {

QSet<QString> readCronPauseFile(const QString &stateFile, const CronProblemReporter &report)
{
    QSet<QString> names;
    QFile file(stateFile);
    if (stateFile.isEmpty() || !file.exists())
        return names;
    QString problem;
    if (!file.open(QIODevice::ReadOnly)) {
        problem = QStringLiteral("cannot be read: %1").arg(file.errorString());
    } else {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
        const QJsonValue paused = document.object().value(QStringLiteral("paused"));
        if (error.error != QJsonParseError::NoError)
            problem = QStringLiteral("is not valid JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset);
        else if (!document.isObject() || !(paused.isArray() || paused.isUndefined()))
            problem = QStringLiteral("does not hold {\"paused\": [task names]}");
        else
            for (const QJsonValue &name : paused.toArray())
                names.insert(name.toString());
    }
    if (problem.isEmpty())
        return names;
    // Keep the damaged file for the operator; start with no task paused.
    file.close();
    const QString kept = stateFile + QStringLiteral(".corrupt-")
                         + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddTHHmmssZ"));
    const bool moved = QFile::rename(stateFile, kept);
    const QString message = QStringLiteral("Cron state file %1 %2; no task is paused now. %3")
                                .arg(stateFile, problem,
                                     moved ? QStringLiteral("The damaged file was kept as %1.").arg(kept)
                                           : QStringLiteral("It could not be moved aside."));
    qCCritical(lcCron).noquote() << message;
    if (report)
        report(message);
    return {};
}

namespace {

class LocalCoordinator final : public CronCoordinator
{
public:
    LocalCoordinator(QString stateFile, const CronProblemReporter &report)
        : m_stateFile(std::move(stateFile)), m_paused(readCronPauseFile(m_stateFile, report))
    {
    }
    QString kind() const override { return QStringLiteral("local"); }
    Result<bool> claimTick(const QString &, const QDateTime &, std::chrono::seconds) override { return true; }
    Result<bool> isPaused(const QString &task) override
    {
        std::lock_guard lock(m_mutex);
        return m_paused.contains(task);
    }
    Status setPaused(const QString &task, bool paused) override
    {
        std::lock_guard lock(m_mutex);
        if (paused)
            m_paused.insert(task);
        else
            m_paused.remove(task);
        if (m_stateFile.isEmpty())
            return Status::ok();
        QJsonArray names;
        QStringList sorted = m_paused.values();
        sorted.sort();
        for (const QString &name : sorted)
            names.append(name);
        QSaveFile file(m_stateFile);
        if (!file.open(QIODevice::WriteOnly))
            return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_stateFile, file.errorString()));
        file.write(QJsonDocument(QJsonObject{{QStringLiteral("paused"), names}}).toJson());
        if (!file.commit())
            return Status::unavailable(QStringLiteral("cannot write %1: %2").arg(m_stateFile, file.errorString()));
        return Status::ok();
    }

private:
    const QString m_stateFile;
    std::mutex m_mutex;
    QSet<QString> m_paused; // guarded by m_mutex
};

class RedisCoordinator final : public CronCoordinator
{
public:
    RedisCoordinator(RedisAddress address, QString prefix) : m_pool(std::move(address)), m_prefix(std::move(prefix)) {}
    QString kind() const override { return QStringLiteral("redis"); }

    Result<bool> claimTick(const QString &task, const QDateTime &tick, std::chrono::seconds ttl) override
    {
        const QByteArray key = "cron_tick:" + task.toUtf8() + ':' + QByteArray::number(tick.toSecsSinceEpoch());
        const Result<RedisValue> reply = call({"SET", key, "1", "NX", "PX", QByteArray::number(qint64(ttl.count()) * 1000)});
        if (!reply)
            return reply.status();
        return !reply->isNil();
    }
    Result<bool> isPaused(const QString &task) override
    {
        const Result<RedisValue> reply = call({"SISMEMBER", pausedKey(), task.toUtf8()});
        if (!reply)
            return reply.status();
        return reply->integer == 1;
    }
    Status setPaused(const QString &task, bool paused) override
    {
        return call({paused ? QByteArray("SADD") : QByteArray("SREM"), pausedKey(), task.toUtf8()}).status();
    }

private:
    QByteArray pausedKey() const { return (m_prefix + QStringLiteral("cron:paused")).toUtf8(); }
    Result<RedisValue> call(const QList<QByteArray> &args) { return m_pool.commandWithin(std::chrono::seconds(2), args); }

    RedisPool m_pool;
    const QString m_prefix;
};

} // namespace

std::unique_ptr<CronCoordinator> createLocalCronCoordinator(const QString &stateFile, const CronProblemReporter &report)
{
    return std::make_unique<LocalCoordinator>(stateFile, report);
}

Result<std::unique_ptr<CronCoordinator>> createRedisCronCoordinator(const QString &connStr, const QString &prefix)
{
    Result<RedisAddress> address = RedisAddress::parse(connStr);
    if (!address)
        return address.status();
    return std::unique_ptr<CronCoordinator>(std::make_unique<RedisCoordinator>(*address, prefix));
}

} // namespace Switchyard
