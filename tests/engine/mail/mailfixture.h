#pragma once

// The mail tests' fixture (tst_mailcompose, tst_mailgolden): an engine with the mail notifier on a
// recording sender, and the forge's users, repositories and issues written to its store.
#include "engine/engine.h"
#include "engine/forge/forgedata.h"
#include "engine/mail/mail.h"
#include "engine/store/store.h"

#include "support/testutil.h"

#include <QTemporaryDir>

#include <mutex>

// In each test's own translation unit (one per test executable).
namespace {

using namespace Switchyard;
using namespace Switchyard::Mail;
using namespace std::chrono_literals;


// Keeps what it is asked to send.
struct Outbox
{
    std::mutex mutex;
    std::vector<Message> sent;

    std::vector<Message> take()
    {
        std::lock_guard lock(mutex);
        return std::exchange(sent, {});
    }
};

class RecordingSender final : public Sender
{
public:
    explicit RecordingSender(std::shared_ptr<Outbox> box) : m_box(std::move(box)) {}
    std::vector<Status> send(const CancelToken &, const std::vector<Message> &batch) override
    {
        std::lock_guard lock(m_box->mutex);
        m_box->sent.insert(m_box->sent.end(), batch.begin(), batch.end());
        return std::vector<Status>(batch.size(), Status::ok());
    }

private:
    std::shared_ptr<Outbox> m_box;
};

struct Fixture
{
    explicit Fixture(const QByteArray &extraIni = {}, std::map<QString, QString> overrides = {})
    {
        const QByteArray ini = "APP_NAME = Forge\n[server]\nDOMAIN = git.example.com\n"
                               "[service]\nENABLE_NOTIFY_MAIL = true\n"
                               "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = Forge <forge@example.com>\n" +
                               extraIni;
        EngineOptions options;
        options.mailOptions.makeSender = [box = outbox] { return std::make_unique<RecordingSender>(box); };
        options.mailOptions.templateOverrides = std::move(overrides);
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()), std::move(options));
        if (!started)
            qFatal("engine: %s", qPrintable(started.status().message()));
        engine = std::move(started).value();
        alice = user(QStringLiteral("alice"));
        repoId = repo(alice, QStringLiteral("engine"), false);
    }
    ~Fixture() { engine->shutdown(); }

    void write(const std::function<Status(SqlTransaction &)> &work)
    {
        const Status s = engine->store().write(work);
        if (!s)
            qFatal("store: %s", qPrintable(s.message()));
    }

    qint64 user(const QString &login, const QString &pref = QStringLiteral("enabled"), const QString &language = {},
                const QString &email = QStringLiteral("<login>"), bool active = true)
    {
        qint64 id = 0;
        write([&](SqlTransaction &tx) -> Status {
            ForgeUser u;
            u.login = login;
            u.fullName = login.at(0).toUpper() + login.mid(1);
            u.email = email == QLatin1String("<login>") ? login + QStringLiteral("@example.com") : email;
            u.language = language;
            Result<ForgeUser> saved = ForgeDb::upsertUser(tx, QStringLiteral("default"), ++m_nextExternal, u);
            if (!saved)
                return saved.status();
            id = saved->id;
            return tx.exec(QStringLiteral("UPDATE forge_user SET email_notifications = ?, is_active = ?, email = ? WHERE id = ?"),
                           {pref, active ? 1 : 0, u.email, id})
                .status();
        });
        return id;
    }
    ForgeUser forgeUser(qint64 id)
    {
        return *engine->store().readValue<ForgeUser>([&](SqlTransaction &tx) { return ForgeDb::user(tx, id); });
    }
    qint64 repo(qint64 owner, const QString &name, bool isPrivate)
    {
        qint64 id = 0;
        write([&](SqlTransaction &tx) -> Status {
            ForgeRepo r;
            r.owner = *ForgeDb::user(tx, owner);
            r.name = name;
            r.isPrivate = isPrivate;
            r.htmlUrl = QStringLiteral("https://git.example.com/") + r.owner.login + u'/' + name;
            Result<ForgeRepo> saved = ForgeDb::upsertRepo(tx, QStringLiteral("default"), ++m_nextExternal, r);
            if (saved)
                id = saved->id;
            return saved.status();
        });
        return id;
    }
    ForgeIssue issue(qint64 number, qint64 poster, bool isPull = false, const QString &title = QStringLiteral("Crash on start"))
    {
        ForgeIssue saved;
        write([&](SqlTransaction &tx) -> Status {
            ForgeIssue i;
            i.repoId = repoId;
            i.index = number;
            i.title = title;
            i.content = QStringLiteral("It crashes.");
            i.isPull = isPull;
            i.poster = *ForgeDb::user(tx, poster);
            i.htmlUrl = QStringLiteral("https://git.example.com/alice/engine/%1/%2").arg(isPull ? u"pulls" : u"issues").arg(number);
            ForgePullRequest pr;
            pr.headBranch = QStringLiteral("feature");
            pr.baseBranch = QStringLiteral("main");
            pr.isWorkInProgress = isWorkInProgressTitle(title);
            Result<ForgeIssue> r = ForgeDb::upsertIssue(tx, number + 1000, i, isPull ? &pr : nullptr, nullptr);
            if (r)
                saved = *r;
            return r.status();
        });
        return saved;
    }
    void sql(const QString &statement, const QVariantList &values) { write([&](SqlTransaction &tx) { return tx.exec(statement, values).status(); }); }
    void watch(qint64 user, WatchKinds kinds = {}) { write([&](SqlTransaction &tx) { return ForgeDb::setWatch(tx, user, repoId, WatchMode::Normal, kinds); }); }
    void mute(qint64 user) { write([&](SqlTransaction &tx) { return ForgeDb::setMute(tx, user, repoId, true); }); }

    NotifyContext as(qint64 doer) { return {forgeUser(doer), QStringLiteral("trace-1")}; }

    // Everything the notifier queued, once the mail queue has been drained. The deadline only
    // bounds a hang: flushAll returns as soon as the queues are empty, and composing a 9 MB body
    // under ThreadSanitizer takes tens of seconds.
    std::vector<Message> mailed()
    {
        if (!engine->queues().flushAll(CancelToken(), 90s))
            qFatal("the mail queue did not drain");
        return outbox->take();
    }
    static QStringList recipients(const std::vector<Message> &messages)
    {
        QStringList to;
        for (const Message &m : messages)
            to << m.toAddress.section(u'@', 0, 0);
        to.sort();
        return to;
    }

    QTemporaryDir dir;
    std::shared_ptr<Outbox> outbox = std::make_shared<Outbox>();
    std::unique_ptr<Engine> engine;
    qint64 alice = 0;
    qint64 repoId = 0;

private:
    qint64 m_nextExternal = 100;
};

} // namespace
