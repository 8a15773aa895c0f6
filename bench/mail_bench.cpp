// Mail: what composing, queueing and handing over cost, each beside a same-run peer.
//   1. composing with the dummy sender: forge events through the mail notifier (recipients,
//      template, a message per recipient, the `mail` queue), mails per second end to end, beside
//      the peer: encoding the same number of finished messages for the wire (toMime) and nothing else;
//   2. handing to a local SMTP sink (tests/support/smtpsink.py): the engine's sender, batches over
//      one connection, beside a plain libcurl loop sending the same bytes over one kept connection;
//   3. the recipients of an issue in a repository with --watchers watchers (default 10 000),
//      beside reading the same watcher ids alone;
//   4. resident memory with --queued mails (default 100 000) waiting in the paused mail queue.
//
//   mail_bench [--watchers N] [--events N] [--sink-mails N] [--queued N]
#include "benchutil.h"

#include "engine/engine.h"
#include "engine/forge/forgedata.h"
#include "engine/mail/mail.h"
#include "engine/mail/mail_p.h"
#include "engine/queue/queue.h"
#include "engine/store/store.h"

#include "support/smtpserver.h"
#include "support/testutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <curl/curl.h>

#include <atomic>
#include <cstdio>
#include <thread>

using namespace Switchyard;
using namespace Switchyard::Mail;
using namespace std::chrono_literals;

namespace {

double secondsOf(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

// A repository with `watchers` watchers (mail enabled, half of them in Chinese) and an issue.
ForgeIssue seedWorld(Engine &engine, int watchers, ForgeUser &doer)
{
    ForgeIssue issue;
    const Status written = engine.store().write([&](SqlTransaction &tx) -> Status {
        ForgeUser owner;
        owner.login = QStringLiteral("alice");
        owner.email = QStringLiteral("alice@example.com");
        Result<ForgeUser> alice = ForgeDb::upsertUser(tx, QStringLiteral("default"), 1, owner);
        ForgeUser b;
        b.login = QStringLiteral("bob");
        b.email = QStringLiteral("bob@example.com");
        Result<ForgeUser> bob = ForgeDb::upsertUser(tx, QStringLiteral("default"), 2, b);
        if (!alice || !bob)
            return Status::internal(QStringLiteral("users"));
        doer = *bob;
        ForgeRepo r;
        r.owner = *alice;
        r.name = QStringLiteral("engine");
        r.htmlUrl = QStringLiteral("https://git.example.com/alice/engine");
        Result<ForgeRepo> repo = ForgeDb::upsertRepo(tx, QStringLiteral("default"), 1, r);
        if (!repo)
            return repo.status();
        for (int i = 0; i < watchers; ++i) {
            ForgeUser u;
            u.login = QStringLiteral("watcher%1").arg(i);
            u.email = u.login + QStringLiteral("@example.com");
            u.language = i % 2 ? QStringLiteral("zh-CN") : QString();
            Result<ForgeUser> saved = ForgeDb::upsertUser(tx, QStringLiteral("default"), 100 + i, u);
            if (!saved)
                return saved.status();
            if (Status s = ForgeDb::setWatch(tx, saved->id, repo->id, WatchMode::Normal); !s)
                return s;
        }
        ForgeIssue i;
        i.repoId = repo->id;
        i.index = 1;
        i.title = QStringLiteral("Queue stalls under load");
        i.content = QStringLiteral("Steps:\n\n1. push 10 000 items\n2. watch the **workers**\n\nSee [the log](logs/worker.txt).");
        i.poster = *alice;
        i.htmlUrl = QStringLiteral("https://git.example.com/alice/engine/issues/1");
        Result<ForgeIssue> saved = ForgeDb::upsertIssue(tx, 1, i, nullptr, nullptr);
        if (saved)
            issue = *saved;
        return saved.status();
    });
    if (!written)
        qFatal("world: %s", qPrintable(written.message()));
    return issue;
}

struct Counting final : Sender
{
    std::atomic<qint64> *count;
    explicit Counting(std::atomic<qint64> *c) : count(c) {}
    std::vector<Status> send(const CancelToken &, const std::vector<Message> &batch) override
    {
        *count += qint64(batch.size());
        return std::vector<Status>(batch.size(), Status::ok());
    }
};

size_t readBytes(char *buffer, size_t size, size_t count, void *user)
{
    auto *pair = static_cast<std::pair<const QByteArray *, qsizetype> *>(user);
    const size_t n = std::min<size_t>(size * count, size_t(pair->first->size() - pair->second));
    memcpy(buffer, pair->first->constData() + pair->second, n);
    pair->second += qsizetype(n);
    return n;
}

// The peer of 2: libcurl alone, one kept connection, the same bytes.
double plainCurlLoop(const Test::SmtpServer &sink, const std::vector<QByteArray> &mimes)
{
    CURL *curl = curl_easy_init();
    const QByteArray url = "smtp://127.0.0.1:" + QByteArray::number(sink.port()) + "/bench";
    QElapsedTimer timer;
    timer.start();
    for (const QByteArray &mime : mimes) {
        std::pair<const QByteArray *, qsizetype> source{&mime, 0};
        curl_easy_reset(curl);
        curl_easy_setopt(curl, CURLOPT_URL, url.constData());
        curl_easy_setopt(curl, CURLOPT_MAIL_FROM, "<bounces@example.com>");
        curl_slist *rcpt = curl_slist_append(nullptr, "<ops@example.com>");
        curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, readBytes);
        curl_easy_setopt(curl, CURLOPT_READDATA, &source);
        curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(mime.size()));
        const CURLcode code = curl_easy_perform(curl);
        curl_slist_free_all(rcpt);
        if (code != CURLE_OK) {
            std::fprintf(stderr, "plain loop: %s\n", curl_easy_strerror(code));
            break;
        }
    }
    const double rate = double(mimes.size()) / secondsOf(timer);
    curl_easy_cleanup(curl);
    return rate;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int watchers = Bench::option(args, "--watchers", 10'000);
    const int events = Bench::option(args, "--events", 5);
    const int sinkMails = Bench::option(args, "--sink-mails", 2'000);
    const int queued = Bench::option(args, "--queued", 100'000);
    QLoggingCategory::setFilterRules(QStringLiteral("switchyard.*.info=false"));

    // 1 and 3: an engine whose mailer counts what it is handed.
    {
        QTemporaryDir dir;
        std::atomic<qint64> handed{0};
        EngineOptions options;
        options.mailOptions.makeSender = [&handed] { return std::make_unique<Counting>(&handed); };
        const QByteArray ini = "[server]\nDOMAIN = git.example.com\n[service]\nENABLE_NOTIFY_MAIL = true\n"
                               "[mailer]\nENABLED = true\nPROTOCOL = dummy\nFROM = Forge <forge@example.com>\n"
                               "[queue.mail]\nBATCH_LENGTH = 100\n";
        Result<std::unique_ptr<Engine>> started = Engine::start(CancelToken(), Test::configFrom(ini, dir.path()), std::move(options));
        if (!started) {
            std::fprintf(stderr, "engine: %s\n", qPrintable(started.status().message()));
            return 1;
        }
        Engine &engine = **started;
        ForgeUser doer;
        const ForgeIssue issue = seedWorld(engine, watchers, doer);

        // 3. Recipients, beside the watcher ids alone.
        std::vector<double> chainMs, idsMs;
        std::size_t found = 0;
        for (int round = 0; round < 5; ++round) {
            QElapsedTimer t;
            t.start();
            Result<std::vector<RecipientBatch>> batches = engine.store().readValue<std::vector<RecipientBatch>>([&](SqlTransaction &tx) {
                IssueRecipientRules rules;
                rules.doerId = doer.id;
                return issueRecipients(tx, *ForgeDb::issueFacts(tx, issue.id), rules);
            });
            chainMs.push_back(double(t.nsecsElapsed()) / 1e6);
            found = 0;
            for (const RecipientBatch &b : *batches)
                found += b.users.size();
            t.restart();
            Result<QSet<qint64>> ids = engine.store().readValue<QSet<qint64>>([&](SqlTransaction &tx) {
                return ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM watch WHERE repo_id = ? AND mode IN (1, 3) AND issues = 1"),
                                      {issue.repoId});
            });
            idsMs.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        std::printf("recipients of an issue with %d watchers: %.1f ms median (%zu mailed)   the watcher ids alone: %.1f ms   "
                    "(target < 200 ms)\n",
                    watchers, Bench::percentile(chainMs, 0.5), found, Bench::percentile(idsMs, 0.5));

        // 1. Composing: events → messages → queue → the counting sender.
        QElapsedTimer timer;
        timer.start();
        const qint64 cpuBefore = Bench::cpuMicros();
        for (int i = 0; i < events; ++i)
            engine.notifyBus().newIssue({doer, QString()}, issue, {});
        const double notified = secondsOf(timer);
        if (!engine.queues().flushAll(CancelToken(), 600s)) {
            std::fprintf(stderr, "the mail queue did not drain\n");
            return 1;
        }
        const double total = secondsOf(timer);
        const qint64 mails = handed.load();
        const double cpuPerMail = double(Bench::cpuMicros() - cpuBefore) / double(std::max<qint64>(mails, 1));
        // The peer: the wire form of the same number of messages, nothing else.
        Message sample = engine.mail().newMessage(QStringLiteral("bench"), {});
        sample.toAddress = QStringLiteral("watcher1@example.com");
        sample.subject = QStringLiteral("[alice/engine] Queue stalls under load (#1)");
        sample.text = QString(600, u'x');
        sample.html = QString(1800, u'y');
        sample.headers.assign(20, {QStringLiteral("X-Gitea-Header"), QStringLiteral("some value of a header")});
        QElapsedTimer peer;
        peer.start();
        qint64 bytes = 0;
        for (qint64 i = 0; i < mails; ++i)
            bytes += sample.toMime().size();
        const double peerRate = double(mails) / secondsOf(peer);
        std::printf("composing (dummy sender, batches of 100): %.0f mails/s end to end (%lld mails from %d events; the notifier alone "
                    "%.0f/s), CPU %.0f µs a mail   peer, encoding finished messages: %.0f/s   (target >= 5 000/s)\n",
                    double(mails) / total, static_cast<long long>(mails), events, double(mails) / notified, cpuPerMail, peerRate);
        (void)bytes;

        // 4. Memory with the queue full and paused.
        std::shared_ptr<WorkerPoolQueue<Message>> queue = engine.mail().queue();
        if (!queue->pool().pause(CancelToken())) {
            std::fprintf(stderr, "pause failed\n");
            return 1;
        }
        const qint64 rssBefore = Bench::residentKiB();
        std::vector<Message> chunk;
        for (int i = 0; i < queued; ++i) {
            Message m = sample;
            m.toAddress = QStringLiteral("w%1@example.com").arg(i);
            chunk.push_back(std::move(m));
            if (chunk.size() == 1000 || i + 1 == queued) {
                engine.mail().sendAsync(std::move(chunk));
                chunk.clear();
            }
        }
        const qint64 rssAfter = Bench::residentKiB();
        std::printf("resident memory with %lld mails queued (level, paused): +%lld KiB (%lld → %lld)   (target < +50 MiB)\n",
                    static_cast<long long>(queue->stats().length), static_cast<long long>(rssAfter - rssBefore),
                    static_cast<long long>(rssBefore), static_cast<long long>(rssAfter));
        queue->pool().resume();
        engine.shutdown();
    }

    // 2. Handing to a local sink.
    {
        Test::SmtpServer sink;
        if (Status s = sink.start(); !s) {
            std::fprintf(stderr, "sink: %s\n", qPrintable(s.message()));
            return 1;
        }
        QTemporaryDir dir;
        const EngineConfig config = Test::configFrom("[mailer]\nENABLED = true\nFROM = forge@example.com\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = " +
                                                         QByteArray::number(sink.port()) + "\n",
                                                     dir.path());
        std::vector<Message> batch;
        std::vector<QByteArray> mimes;
        for (int i = 0; i < sinkMails; ++i) {
            Message m;
            m.fromAddress = QStringLiteral("forge@example.com");
            m.envelopeFrom = QStringLiteral("bounces@example.com");
            m.toAddress = QStringLiteral("ops@example.com");
            m.subject = QStringLiteral("bench %1").arg(i);
            m.text = QString(600, u'x');
            m.html = QString(1800, u'y');
            m.date = QDateTime::currentDateTimeUtc();
            mimes.push_back(m.toMime());
            batch.push_back(std::move(m));
        }
        const double plain = plainCurlLoop(sink, mimes);
        std::unique_ptr<Sender> sender = makeSender(config.mailer);
        QElapsedTimer timer;
        timer.start();
        int failed = 0;
        for (std::size_t first = 0; first < batch.size(); first += 20) { // the queue's batches
            const std::vector<Message> part(batch.begin() + qsizetype(first), batch.begin() + qsizetype(std::min(batch.size(), first + 20)));
            for (const Status &s : sender->send(CancelToken(), part))
                failed += s ? 0 : 1;
        }
        const double ours = double(batch.size()) / secondsOf(timer);
        std::printf("handing to a local SMTP sink: %.0f mails/s (%d failed)   plain libcurl loop, one kept connection: %.0f/s   "
                    "ratio %.0f %%   (target >= 50 %%)\n",
                    ours, failed, plain, 100 * ours / plain);
    }
    return 0;
}
