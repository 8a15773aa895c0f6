#pragma once

// The operation catalogue (SPEC §12): every admin operation described once — its action name,
// HTTP method and path, flags, typed arguments and result, the function over the engine, its
// audit rule and its command-line spelling. Everything else is generated from the entries: the
// admin API registers one route per entry (src/server), the remote backend builds the request and
// decodes the answer, the local backend runs the function on its pool, switchyardctl maps its
// commands and --help to entries, and audit is written in one place (Op::execute) for the
// embedded engine and the API alike.
//
// An entry is an `Op<Args, Result>` defined in the file of its subsystem (src/admin/ops/*.cpp)
// and listed by that subsystem's `…Ops()` function; Catalogue::all() joins the lists.
//
// Arguments are a struct whose `describe(v, args)` names each argument with an ArgSpec (where it
// travels: path, query or body; its range; its CLI spelling). The same description parses an HTTP
// request (server), builds one (remote backend, CLI), validates a local call and documents itself.

#include "admintypes.h"
#include "jsoncodec.h"

#include "engine/core/cancellation.h"
#include "engine/core/status.h"
#include "engine/core/wholenumber.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QStringList>
#include <QUrlQuery>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace Switchyard {
class Engine;
}

namespace Switchyard::Admin {

class AuditLog;

enum class HttpMethod { Get, Post, Put, Patch, Delete };
QByteArray methodName(HttpMethod method);

enum OpFlag : unsigned {
    ReadOp = 0,      // reads; allowed to read-only tokens; not audited
    Mutating = 1,    // changes something: admin tokens only, audited before acting
    MayWait = 2,     // may wait on the network or on workers: runs on a pool, takes the call's token
    Cached = 4,      // the API may answer from a snapshot at most 100 ms old (lists monitors poll hard)
    JobOp = 8,       // long, with progress: the console runs it as an AdminJob
    Paged = 16,      // a list: the API pages it (?page, ?limit ≤ 500, X-Total-Count); clients fetch all
    Anonymous = 32,  // answers without a token too (a valid token adds detail): /health only
    Ingest = 64,     // POST /events: ingest tokens may call it, and so may a request without a token
                     // (the entry then checks the source's signature); not audited per event
};

// One argument of an operation.
struct ArgSpec
{
    // Header: a request header (`name` is the header's name). Payload: the whole body, as is (an
    // entry that takes one has no JSON body fields; the CLI reads it from a file, "-" for stdin).
    enum Where { Path, Query, Body, Header, Payload };
    Where where = Path;
    const char *name = "";
    const char *help = "";
    qint64 min = std::numeric_limits<qint64>::min();
    qint64 max = std::numeric_limits<qint64>::max();
    // Command line: "--timeout" for an option (a bool is a switch); empty: positional, in order
    // (path arguments always are).
    const char *option = "";
    bool required = false; // body and query: must be given (path arguments always must)
};

// Something a described argument struct is visited with: `v(spec, member)`.
// The members' types: qint64, int, bool, QString, QDateTime; QJsonValue for a JSON body field (an
// object such as a hook's events; JSON text on the command line); QByteArray for a Payload.

// What an HTTP request carries for an operation (path placeholders decoded).
struct Request
{
    std::map<QString, QString> params;
    QUrlQuery query;
    QByteArray body;
    std::vector<std::pair<QByteArray, QByteArray>> headers; // as received; names compared without case

    QByteArray header(const QByteArray &name) const;
};

// A body written piece by piece after the head (an export of every match): the server runs
// `produce` on its pool, and `write` sends one piece (HTTP chunked), waiting while the peer has
// not taken the earlier ones. `write` fails once the peer went away or the server stops; produce
// then returns that status. What was sent before an error stays sent, so a producer writes whole
// records per piece.
struct StreamBody
{
    using Write = std::function<Status(const QByteArray &piece)>;
    QByteArray contentType;
    std::function<Status(const CancelToken &cancel, const Write &write)> produce;
};

// The HTTP form of an answer.
struct Answer
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = "application/json";
    std::vector<std::pair<QByteArray, QByteArray>> headers;
    Status error; // what a non-2xx answer says (the body is its JSON)
    std::shared_ptr<StreamBody> stream; // set: the body is written by it (chunked), `body` unused

    static Answer json(const QJsonValue &value, int status = 200);
    // A body already encoded (Json::encodeText).
    static Answer jsonText(QByteArray body, int status = 200);
    static Answer failure(const Status &status);
    static int httpStatus(Status::Code code);
    // What a status line means when the body has no code (a proxy, the HTTP edge, an old server).
    static Status::Code codeForHttp(int httpStatus);
};

// An answer without a body, with the entry's okStatus (205 for POST /notifications/read-all).
struct NoContent
{
};
template<typename V>
void describe(V &, NoContent &)
{
}

// An operation's result when it has nothing to say but that it worked: {"ok": true}, or
// {"accepted": true} with 202 for work that goes on after the answer.
struct Done
{
    bool ok = true;
    bool accepted = false;
};
template<typename V>
void describe(V &v, Done &d)
{
    v("ok", d.ok, Json::Omit);
    v("accepted", d.accepted, Json::Omit);
}

// A result that is not JSON (GET /metrics).
struct Text
{
    QByteArray body;
    QByteArray contentType = "text/plain; charset=utf-8";
};

// A list the operation pages itself (the audit log): the rows asked for and how many there are.
template<typename T>
struct Page
{
    std::vector<T> rows;
    qint64 total = 0;
    std::shared_ptr<StreamBody> stream; // an export: every match, written by it instead of rows
};

// Who calls and with what: given by the API (per request) or the local backend (per call).
struct OpContext
{
    Engine &engine;
    AuditLog *audit = nullptr; // null: not audited (said once, when the log could not be opened)
    // Who does it: the API token's name, or "console (<user>)". The audit records it as is (the
    // API's `actor`); the engine (a cron run, a forced release) as engineDoer().
    QString doer;
    bool viaApi = false;
    QString tokenName;         // the API's token name; empty for an anonymous /health
    QString role;              // "admin" or "read-only"
    QString remoteAddr;        // "local" for the console
    bool mayMutate = false;
    CancelToken cancel;
    // Runs work that goes on after the answer (a non-blocking flush) on the caller's pool, with a
    // token its owner cancels on stop.
    std::function<void(std::function<void(const CancelToken &)>)> detach;
    // The API's own figures for /metrics; null in the console.
    std::function<QByteArray()> serverMetrics;

    // "api (<token>)" for the API, so a run's history tells a script from a person; the doer as is
    // for the console.
    QString engineDoer() const { return viaApi ? QStringLiteral("api (%1)").arg(doer) : doer; }
};

// What every entry is, without its types: metadata for routes, docs and --help, and the
// type-erased forms the server and the CLI use.
class OpBase
{
public:
    struct Column
    {
        const char *header;
        const char *key;
    };
    struct Info
    {
        const char *action;  // "queue.pause": audit's action, the catalogue's key
        HttpMethod method = HttpMethod::Get;
        const char *path;    // below /api/v1, with {placeholders}
        unsigned flags = ReadOp;
        const char *summary; // one line, for --help and docs
        const char *cli;     // command words: "queues pause"
        std::vector<const char *> cliAliases = {}; // other spellings: "queues" for "queues list"
        std::vector<Column> columns = {};         // the CLI's table for a list
        const char *done = "";                    // the CLI's line for a change: "paused queue {qid}"
        const char *doneDryRun = "";              // … for an answer that says "dry_run": true
        qint64 maxBody = 0;                       // 0: [server] MAX_BODY_SIZE
        int okStatus = 200;                       // 202 for a run that goes on after the answer
        // The CLI's exit status for an answer: false → 1 (a failed check). Null: the HTTP status decides.
        bool (*succeeded)(const QJsonValue &answer) = nullptr;
    };
    struct ArgInfo
    {
        ArgSpec spec;
        bool isSwitch = false; // a bool: a switch on the command line
    };

    explicit OpBase(Info info) : m_info(std::move(info)) {}
    virtual ~OpBase() = default;
    OpBase(const OpBase &) = delete;
    OpBase &operator=(const OpBase &) = delete;

    const Info &info() const { return m_info; }
    QString action() const { return QLatin1String(m_info.action); }
    bool hasFlag(OpFlag flag) const { return m_info.flags & flag; }

    // Server: parse the request, run (Op::execute), encode the answer.
    virtual Answer serve(OpContext &context, const Request &request) const = 0;
    // The arguments in order, for --help, docs and the CLI.
    virtual std::vector<ArgInfo> args() const = 0;
    // CLI: the request for positional words and options (`option(name)` gives an option's value,
    // nullopt when absent; a switch gives "1").
    virtual Result<Request> requestFromCommandLine(const QStringList &positional,
                                                   const std::function<std::optional<QString>(const QString &)> &option) const = 0;
    // The path with the request's placeholders filled in and percent-encoded.
    QString pathFor(const std::map<QString, QString> &params) const;
    // The audit target and the CLI's messages: the path arguments, joined.
    static QString targetOf(const Request &request);

protected:
    Info m_info;
};

namespace detail {

// Writes typed arguments into a Request (remote backend, CLI).
class RequestWriter
{
public:
    template<typename T>
    void operator()(const ArgSpec &spec, const T &value)
    {
        const QString name = QLatin1String(spec.name);
        QJsonValue json;
        QString text;
        if constexpr (std::is_same_v<T, QByteArray>) {
            request.body = value; // a Payload
            return;
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!value && spec.where != ArgSpec::Body)
                return; // a switch that is off is not sent
            text = value ? QStringLiteral("1") : QStringLiteral("0");
            json = value;
        } else if constexpr (std::is_integral_v<T>) {
            text = QString::number(value);
            json = qint64(value);
        } else if constexpr (std::is_same_v<T, QDateTime>) {
            if (!value.isValid())
                return;
            json = Json::time(value);
            text = json.toString();
        } else if constexpr (std::is_same_v<T, QJsonValue>) {
            if (value.isUndefined() || value.isNull())
                return; // not given
            json = value;
            text = jsonText(value);
        } else {
            if (value.isEmpty() && spec.where != ArgSpec::Path)
                return;
            text = value;
            json = value;
        }
        switch (spec.where) {
        case ArgSpec::Path: request.params[name] = text; break;
        case ArgSpec::Query: request.query.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(text))); break;
        case ArgSpec::Body: body.insert(name, json); break;
        case ArgSpec::Header: request.headers.emplace_back(QByteArray(spec.name), text.toUtf8()); break;
        case ArgSpec::Payload: break;
        }
    }
    Request finish();
    static QString jsonText(const QJsonValue &value);

    Request request;
    QJsonObject body;
};

// Reads (and checks) typed arguments from a Request: the server's side.
class RequestReader
{
public:
    // `rawBody`: the entry takes the body as its Payload (no JSON fields are read from it).
    explicit RequestReader(const Request &request, bool rawBody = false);

    template<typename T>
    void operator()(const ArgSpec &spec, T &value)
    {
        if (!m_status)
            return;
        const QString name = QLatin1String(spec.name);
        if constexpr (std::is_same_v<T, QByteArray>) {
            value = m_request.body; // a Payload
            return;
        } else {
        if (spec.where == ArgSpec::Header) {
            const QByteArray header = m_request.header(QByteArray(spec.name));
            if (header.isEmpty()) {
                if (spec.required)
                    m_status = missing(spec);
                return;
            }
            m_status = fromText(spec, QString::fromUtf8(header), value);
            return;
        }
        if (spec.where == ArgSpec::Body) {
            m_seen << name;
            const QJsonValue json = m_body.value(name);
            if (json.isUndefined()) {
                if (spec.required)
                    m_status = missing(spec);
                return;
            }
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                const std::optional<qint64> whole = wholeNumber<qint64>(json); // range checked before any cast (#48)
                if (!whole || *whole < spec.min || *whole > spec.max) {
                    m_status = range(spec);
                    return;
                }
                value = T(*whole);
            } else {
                m_status = Json::decode(json, value, name);
            }
            return;
        }
        const bool present = spec.where == ArgSpec::Path ? m_request.params.count(name) > 0 : m_request.query.hasQueryItem(name);
        if (!present) {
            if (spec.required || spec.where == ArgSpec::Path)
                m_status = missing(spec);
            return;
        }
        const QString text = spec.where == ArgSpec::Path ? m_request.params.at(name)
                                                         : m_request.query.queryItemValue(name, QUrl::FullyDecoded);
        m_status = fromText(spec, text, value);
        }
    }
    Status finish() const;
    // JSON text (a query value, a command-line word) as the value of a JSON argument.
    static Status fromJsonText(const ArgSpec &spec, const QString &text, QJsonValue &value);

private:
    static Status missing(const ArgSpec &spec);
    static Status range(const ArgSpec &spec);
    static Status fromText(const ArgSpec &spec, const QString &text, qint64 &value);
    static Status fromText(const ArgSpec &spec, const QString &text, int &value);
    static Status fromText(const ArgSpec &spec, const QString &text, bool &value);
    static Status fromText(const ArgSpec &spec, const QString &text, QString &value);
    static Status fromText(const ArgSpec &spec, const QString &text, QDateTime &value);
    static Status fromText(const ArgSpec &spec, const QString &text, QJsonValue &value) { return fromJsonText(spec, text, value); }

    const Request &m_request;
    QJsonObject m_body;
    QStringList m_seen;
    Status m_status;
};

// Checks typed arguments against their specs (a local call gets the API's rules).
class Validator
{
public:
    template<typename T>
    void operator()(const ArgSpec &spec, const T &value)
    {
        if (!m_status)
            return;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            if (qint64(value) < spec.min || qint64(value) > spec.max)
                m_status = range(spec);
        } else if constexpr (std::is_same_v<T, QString>) {
            if (spec.where == ArgSpec::Path)
                m_status = checkName(spec, value);
        }
    }
    Status status() const { return m_status; }
    static Status range(const ArgSpec &spec);
    static Status checkName(const ArgSpec &spec, const QString &value);

private:
    Status m_status;
};

// Collects the specs (docs, --help, the CLI's parser) and each argument's JSON kind.
struct SpecCollector
{
    enum Kind { Integer, Switch, String, Time, Bytes, Json };
    template<typename T>
    void operator()(const ArgSpec &spec, const T &)
    {
        specs.push_back(spec);
        kinds.push_back(std::is_same_v<T, QByteArray> ? Bytes
                        : std::is_same_v<T, bool> ? Switch
                        : std::is_integral_v<T> ? Integer
                        : std::is_same_v<T, QDateTime> ? Time
                        : std::is_same_v<T, QJsonValue> ? Json
                                                        : String);
    }
    std::vector<ArgSpec> specs;
    std::vector<Kind> kinds;
};

// The Request that command-line words and options spell (positional arguments in order).
Result<Request> requestFromWords(const SpecCollector &specs, const QStringList &positional,
                                 const std::function<std::optional<QString>(const QString &)> &option);

// The audit rule, in one place for the API and the console: a change the log cannot record is
// not made; a read-only caller is refused (and that is recorded).
Result<qint64> beginChange(OpContext &context, const char *action, const QString &target);
void finishChange(OpContext &context, qint64 entry, const QString &target, const Status &result);

// Whether an entry's arguments take the body as a Payload.
template<typename A>
bool takesPayload()
{
    SpecCollector collector;
    A probe{};
    describe(collector, probe);
    for (const ArgSpec &spec : collector.specs)
        if (spec.where == ArgSpec::Payload)
            return true;
    return false;
}

template<typename T>
struct IsPage : std::false_type {};
template<typename T>
struct IsPage<Page<T>> : std::true_type {};
template<typename T>
struct IsVectorResult : std::false_type {};
template<typename T>
struct IsVectorResult<std::vector<T>> : std::true_type {};

// Paging of a list answer by ?page&limit: the rows [first, first + count) of `total`, or the
// failure that names the bad parameter.
struct PageRange
{
    qint64 first = 0;
    qint64 count = 0;
};
Result<PageRange> pageRange(qint64 total, const Request &request);
// The page of `rows` as the answer, with X-Total-Count; only the page is encoded.
template<typename T>
Answer pageOf(const std::vector<T> &rows, const Request &request)
{
    const Result<PageRange> range = pageRange(qint64(rows.size()), request);
    if (!range)
        return Answer::failure(range.status());
    QByteArray body;
    body.reserve(256 + range->count * 256);
    body.append('[');
    for (qint64 i = range->first; i < range->first + range->count; ++i) {
        if (i > range->first)
            body.append(',');
        Json::encodeText(body, rows[std::size_t(i)]);
    }
    body.append(']');
    Answer answer = Answer::jsonText(std::move(body));
    answer.headers.emplace_back("X-Total-Count", QByteArray::number(qint64(rows.size())));
    return answer;
}

} // namespace detail

template<typename A, typename R>
class Op final : public OpBase
{
public:
    using Args = A;
    using Value = R;
    using Run = std::function<Result<R>(OpContext &, const A &)>;

    Op(Info info, Run run, std::function<bool(const A &)> isRead = {}) : OpBase(std::move(info)), m_run(std::move(run)), m_isRead(std::move(isRead)) {}

    // A change unless the entry is a read, or these arguments make it one (a dry run).
    bool mutates(const A &args) const { return hasFlag(Mutating) && !(m_isRead && m_isRead(args)); }

    Request request(const A &args) const
    {
        detail::RequestWriter writer;
        describe(writer, const_cast<A &>(args)); // a writer only reads
        return writer.finish();
    }

    // Validates, refuses a change to a read-only caller, audits a change around the function.
    Result<R> execute(OpContext &context, const A &args) const
    {
        // A read-only caller is refused a change before its arguments are looked at.
        if (mutates(args) && !context.mayMutate)
            return detail::beginChange(context, m_info.action, targetOf(request(args))).status();
        detail::Validator validator;
        describe(validator, const_cast<A &>(args));
        if (!validator.status())
            return validator.status();
        if (!mutates(args))
            return m_run(context, args);
        const QString target = targetOf(request(args));
        const Result<qint64> entry = detail::beginChange(context, m_info.action, target);
        if (!entry)
            return entry.status();
        Result<R> result = m_run(context, args);
        detail::finishChange(context, *entry, target, result.status());
        return result;
    }

    Answer serve(OpContext &context, const Request &request) const override
    {
        A args{};
        detail::RequestReader reader(request, detail::takesPayload<A>());
        describe(reader, args);
        if (Status parsed = reader.finish(); !parsed) {
            // A change is refused to a read-only caller whatever its arguments say.
            if (hasFlag(Mutating) && !m_isRead && !context.mayMutate)
                return Answer::failure(detail::beginChange(context, m_info.action, targetOf(request)).status());
            return Answer::failure(parsed);
        }
        Result<R> result = execute(context, args);
        if (!result)
            return Answer::failure(result.status());
        if constexpr (std::is_same_v<R, Text>) {
            Answer answer;
            answer.body = result->body;
            answer.contentType = result->contentType;
            return answer;
        } else if constexpr (detail::IsPage<R>::value) {
            if (result->stream) {
                Answer answer;
                answer.contentType = result->stream->contentType;
                answer.stream = result->stream;
                answer.headers.emplace_back("X-Total-Count", QByteArray::number(result->total));
                return answer;
            }
            Answer answer = Answer::jsonText(Json::encodeText(result->rows));
            answer.headers.emplace_back("X-Total-Count", QByteArray::number(result->total));
            return answer;
        } else if constexpr (std::is_same_v<R, NoContent>) {
            Answer answer;
            answer.status = m_info.okStatus;
            answer.contentType.clear();
            return answer;
        } else if constexpr (requires { bool(result->accepted); }) {
            // Done and every result that may say the work goes on after the answer.
            return Answer::jsonText(Json::encodeText(*result), result->accepted ? 202 : m_info.okStatus);
        } else if constexpr (detail::IsVectorResult<R>::value) {
            if (hasFlag(Paged))
                return detail::pageOf(*result, request);
            return Answer::jsonText(Json::encodeText(*result), m_info.okStatus);
        } else if constexpr (std::is_same_v<R, QJsonValue>) {
            return Answer::json(*result, m_info.okStatus);
        } else {
            return Answer::jsonText(Json::encodeText(*result), m_info.okStatus);
        }
    }

    std::vector<ArgInfo> args() const override
    {
        detail::SpecCollector collector;
        A args{};
        describe(collector, args);
        std::vector<ArgInfo> infos;
        for (std::size_t i = 0; i < collector.specs.size(); ++i)
            infos.push_back({collector.specs[i], collector.kinds[i] == detail::SpecCollector::Switch});
        return infos;
    }

    Result<Request> requestFromCommandLine(const QStringList &positional,
                                           const std::function<std::optional<QString>(const QString &)> &option) const override
    {
        // The words become a Request as the server would read it, so the server's rules apply.
        detail::SpecCollector collector;
        A probe{};
        describe(collector, probe);
        Result<Request> request = detail::requestFromWords(collector, positional, option);
        if (!request)
            return request;
        A args{};
        detail::RequestReader reader(*request, detail::takesPayload<A>());
        describe(reader, args);
        if (Status parsed = reader.finish(); !parsed)
            return parsed;
        return request;
    }

private:
    Run m_run;
    std::function<bool(const A &)> m_isRead;
};

// Operations without arguments.
struct NoArgs
{
};
template<typename V>
void describe(V &, NoArgs &)
{
}

namespace Catalogue {
// Every entry, grouped by subsystem in docs order.
const std::vector<const OpBase *> &all();
// The entry for an action name ("queue.pause"); null when there is none.
const OpBase *find(const QString &action);
} // namespace Catalogue

} // namespace Switchyard::Admin
