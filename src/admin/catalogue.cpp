#include "catalogue.h"

#include "auditlog.h"
#include "ops/cacheops.h"
#include "ops/cronops.h"
#include "ops/eventops.h"
#include "ops/instanceops.h"
#include "ops/lockops.h"
#include "ops/queueops.h"
#include "ops/mailops.h"
#include "ops/webhookops.h"

#include <QFile>
#include <QJsonDocument>

namespace Switchyard::Admin {

QByteArray methodName(HttpMethod method)
{
    switch (method) {
    case HttpMethod::Get: return "GET";
    case HttpMethod::Post: return "POST";
    case HttpMethod::Put: return "PUT";
    case HttpMethod::Patch: return "PATCH";
    case HttpMethod::Delete: return "DELETE";
    }
    return "GET";
}

// ---- Answer -------------------------------------------------------------------------------------

Answer Answer::json(const QJsonValue &value, int status)
{
    Answer answer;
    answer.status = status;
    answer.body = value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                  : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return answer;
}

Answer Answer::jsonText(QByteArray body, int status)
{
    Answer answer;
    answer.status = status;
    answer.body = std::move(body);
    return answer;
}

Answer Answer::failure(const Status &status)
{
    Answer answer = json(Json::error(status), httpStatus(status.code()));
    answer.error = status;
    return answer;
}

int Answer::httpStatus(Status::Code code)
{
    switch (code) {
    case Status::Code::Ok: return 200;
    case Status::Code::InvalidArgument: return 400;
    case Status::Code::NotFound: return 404;
    case Status::Code::AlreadyExists:
    case Status::Code::Conflict: return 409;
    case Status::Code::DeadlineExceeded: return 408;
    case Status::Code::Cancelled:
    case Status::Code::Unavailable: return 503;
    case Status::Code::Corruption:
    case Status::Code::Internal: return 500;
    case Status::Code::Unauthenticated: return 401;
    case Status::Code::PermissionDenied: return 403;
    }
    return 500;
}

Status::Code Answer::codeForHttp(int httpStatus)
{
    switch (httpStatus) {
    case 400:
    case 405:
    case 413:
    case 414:
    case 431: return Status::Code::InvalidArgument;
    case 401: return Status::Code::Unauthenticated;
    case 403: return Status::Code::PermissionDenied;
    case 404: return Status::Code::NotFound;
    case 408: return Status::Code::DeadlineExceeded;
    case 409: return Status::Code::Conflict;
    case 429:
    case 503: return Status::Code::Unavailable;
    default: return Status::Code::Internal;
    }
}

QByteArray Request::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

// ---- OpBase -------------------------------------------------------------------------------------

QString OpBase::pathFor(const std::map<QString, QString> &params) const
{
    QStringList segments = QString::fromLatin1(m_info.path).split(u'/');
    for (QString &segment : segments) {
        if (segment.startsWith(u'{')) {
            const auto it = params.find(segment.mid(1, segment.size() - 2));
            segment = it == params.end() ? QString() : QString::fromLatin1(QUrl::toPercentEncoding(it->second));
        }
    }
    return segments.join(u'/');
}

QString OpBase::targetOf(const Request &request)
{
    QStringList values;
    for (const auto &[name, value] : request.params)
        values << value;
    return values.join(u'/');
}

namespace detail {

// ---- Arguments ----------------------------------------------------------------------------------

Request RequestWriter::finish()
{
    if (!body.isEmpty())
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return std::move(request);
}

namespace {

// The first key that appears twice in one object of a JSON text (QJsonDocument keeps the last and
// says nothing); empty when there is none. The text is known to parse.
QString duplicateKey(const QByteArray &json)
{
    std::vector<std::vector<QByteArray>> objects; // keys seen per open object
    std::vector<char> open;                       // '{' or '['
    bool expectKey = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (c == '{') {
            open.push_back('{');
            objects.emplace_back();
            expectKey = true;
        } else if (c == '[') {
            open.push_back('[');
        } else if (c == '}' || c == ']') {
            if (!open.empty() && open.back() == '{')
                objects.pop_back();
            if (!open.empty())
                open.pop_back();
            expectKey = false;
        } else if (c == ',') {
            expectKey = !open.empty() && open.back() == '{';
        } else if (c == '"') {
            const qsizetype start = i + 1;
            for (++i; i < json.size() && json.at(i) != '"'; ++i) {
                if (json.at(i) == '\\')
                    ++i;
            }
            if (expectKey && !objects.empty()) {
                const QByteArray key = json.mid(start, i - start);
                std::vector<QByteArray> &keys = objects.back();
                if (std::find(keys.begin(), keys.end(), key) != keys.end())
                    return QString::fromUtf8(key);
                keys.push_back(key);
                expectKey = false;
            }
        }
    }
    return {};
}

Status invalid(const ArgSpec &spec, const QString &message)
{
    const QString name = QLatin1String(spec.name);
    return Status::invalidArgument(QStringLiteral("%1: %2").arg(name, message)).withField(name);
}

} // namespace

RequestReader::RequestReader(const Request &request, bool rawBody) : m_request(request)
{
    if (rawBody || request.body.trimmed().isEmpty())
        return;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
    if (error.error != QJsonParseError::NoError)
        m_status = Status::invalidArgument(
                       QStringLiteral("body: malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString()))
                       .withField(QStringLiteral("body"));
    else if (!doc.isObject())
        m_status = Status::invalidArgument(QStringLiteral("body: expected a JSON object")).withField(QStringLiteral("body"));
    else if (const QString twice = duplicateKey(request.body); !twice.isEmpty())
        m_status = Status::invalidArgument(QStringLiteral("%1: given twice (each field once)").arg(twice.left(64))).withField(twice.left(64));
    else
        m_body = doc.object();
}

Status RequestReader::finish() const
{
    if (!m_status)
        return m_status;
    for (auto it = m_body.begin(); it != m_body.end(); ++it) {
        if (!m_seen.contains(it.key())) {
            const QString expected = m_seen.isEmpty() ? QStringLiteral("no body") : QStringLiteral("only ") + m_seen.join(QStringLiteral(", "));
            return Status::invalidArgument(QStringLiteral("%1: unknown field (expected %2)").arg(it.key().left(64), expected))
                .withField(it.key().left(64));
        }
    }
    return m_status;
}

Status RequestReader::missing(const ArgSpec &spec)
{
    return invalid(spec, QStringLiteral("missing"));
}

Status RequestReader::range(const ArgSpec &spec)
{
    return Validator::range(spec);
}

Status RequestReader::fromText(const ArgSpec &spec, const QString &text, qint64 &value)
{
    bool ok = false;
    value = text.toLongLong(&ok);
    if (!ok || value < spec.min || value > spec.max) {
        if (spec.where == ArgSpec::Path && spec.min == 1)
            return invalid(spec, QStringLiteral("\"%1\" is not an id (a positive integer)").arg(text.left(64)));
        return invalid(spec, QStringLiteral("\"%1\" is not a number from %2 to %3").arg(text.left(64)).arg(spec.min).arg(spec.max));
    }
    return Status::ok();
}

Status RequestReader::fromText(const ArgSpec &spec, const QString &text, int &value)
{
    qint64 wide = 0;
    Status s = fromText(spec, text, wide);
    value = int(wide);
    return s;
}

Status RequestReader::fromText(const ArgSpec &, const QString &text, bool &value)
{
    const QString lower = text.toLower();
    value = lower != QLatin1String("0") && lower != QLatin1String("false");
    return Status::ok();
}

Status RequestReader::fromText(const ArgSpec &spec, const QString &text, QString &value)
{
    value = text;
    if (spec.where == ArgSpec::Path)
        return Validator::checkName(spec, text);
    return Status::ok();
}

Status RequestReader::fromText(const ArgSpec &spec, const QString &text, QDateTime &value)
{
    value = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!value.isValid())
        return invalid(spec, QStringLiteral("\"%1\" is not an RFC 3339 time").arg(text.left(64)));
    value = value.toUTC();
    return Status::ok();
}

Status RequestReader::fromJsonText(const ArgSpec &spec, const QString &text, QJsonValue &value)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (doc.isNull())
        return invalid(spec, QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    value = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
    return Status::ok();
}

QString RequestWriter::jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

Status Validator::range(const ArgSpec &spec)
{
    if (spec.max == std::numeric_limits<qint64>::max())
        return invalid(spec, QStringLiteral("expected a whole number of at least %1").arg(spec.min));
    return invalid(spec, QStringLiteral("expected a whole number from %1 to %2").arg(spec.min).arg(spec.max));
}

// A name in a path (queue, task, lock key): no control characters, not "." or "..".
Status Validator::checkName(const ArgSpec &spec, const QString &value)
{
    if (value.isEmpty() || value == QLatin1String(".") || value == QLatin1String("..") || value.size() > 256)
        return invalid(spec, QStringLiteral("\"%1\" is not a valid name").arg(value.left(64)));
    for (QChar c : value) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return invalid(spec, QStringLiteral("control characters are not allowed in a name"));
    }
    return Status::ok();
}

Result<Request> requestFromWords(const SpecCollector &collector, const QStringList &positional,
                                 const std::function<std::optional<QString>(const QString &)> &option)
{
    Request request;
    QJsonObject body;
    qsizetype next = 0;
    for (std::size_t i = 0; i < collector.specs.size(); ++i) {
        const ArgSpec &spec = collector.specs[i];
        const QString name = QLatin1String(spec.name);
        std::optional<QString> text;
        if (*spec.option)
            text = option(QLatin1String(spec.option).mid(2));
        else if (next < positional.size())
            text = positional.at(next++);
        else if (spec.where == ArgSpec::Path || spec.required)
            return Status::invalidArgument(QStringLiteral("missing %1").arg(name.toUpper()));
        if (!text)
            continue;
        if (spec.where == ArgSpec::Payload) {
            // A file's bytes, or stdin's for "-".
            QFile file;
            const bool opened = *text == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly) : (file.setFileName(*text), file.open(QIODevice::ReadOnly));
            if (!opened)
                return Status::invalidArgument(QStringLiteral("%1: cannot read %2: %3").arg(name.toUpper(), *text, file.errorString()));
            request.body = file.readAll();
            continue;
        }
        switch (spec.where) {
        case ArgSpec::Path: request.params[name] = *text; break;
        case ArgSpec::Query: request.query.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(*text))); break;
        case ArgSpec::Header: request.headers.emplace_back(QByteArray(spec.name), text->toUtf8()); break;
        case ArgSpec::Payload: break;
        case ArgSpec::Body: {
            bool number = false;
            const qint64 n = text->toLongLong(&number);
            if (collector.kinds[i] == SpecCollector::Integer && number)
                body.insert(name, n);
            else if (collector.kinds[i] == SpecCollector::Switch)
                body.insert(name, *text != QLatin1String("0") && text->toLower() != QLatin1String("false"));
            else if (collector.kinds[i] == SpecCollector::Json) {
                QJsonValue json;
                if (Status s = RequestReader::fromJsonText(spec, *text, json); !s)
                    return s;
                body.insert(name, json);
            }
            else
                body.insert(name, *text);
            break;
        }
        }
    }
    if (next < positional.size())
        return Status::invalidArgument(QStringLiteral("unexpected \"%1\"").arg(positional.at(next)));
    if (!body.isEmpty())
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return request;
}

// ---- Audit --------------------------------------------------------------------------------------

Result<qint64> beginChange(OpContext &context, const char *action, const QString &target)
{
    if (!context.mayMutate) {
        const QString message = QStringLiteral("forbidden: the token \"%1\" is read-only").arg(context.tokenName);
        if (context.audit)
            context.audit->record({0, {}, context.doer, context.remoteAddr, QLatin1String(action), target,
                                   QStringLiteral("403 forbidden (read-only token)")});
        return Status::permissionDenied(message);
    }
    if (!context.audit)
        return qint64(0);
    Result<qint64> begun = context.audit->begin({0, {}, context.doer, context.remoteAddr, QLatin1String(action), target, {}});
    if (!begun)
        return Status::unavailable(QStringLiteral("%1; nothing was changed").arg(begun.status().message()));
    return begun;
}

void finishChange(OpContext &context, qint64 entry, const QString &target, const Status &result)
{
    if (!context.audit || entry <= 0)
        return;
    context.audit->finish(entry, target,
                          result ? QStringLiteral("ok")
                                 : QStringLiteral("%1 %2").arg(Answer::httpStatus(result.code())).arg(result.message()));
}

Result<PageRange> pageRange(qint64 total, const Request &request)
{
    constexpr int kDefaultLimit = 50;
    constexpr int kMaxLimit = 500;
    qint64 page = 1;
    qint64 limit = kDefaultLimit;
    RequestReader reader(request);
    reader(ArgSpec{ArgSpec::Query, "page", "", 1, 1'000'000'000}, page);
    reader(ArgSpec{ArgSpec::Query, "limit", "", 1, kMaxLimit}, limit);
    if (Status valid = reader.finish(); !valid)
        return valid;
    const qint64 first = std::min(total, (page - 1) * limit);
    return PageRange{first, std::min(limit, total - first)};
}

} // namespace detail

namespace Catalogue {

const std::vector<const OpBase *> &all()
{
    static const std::vector<const OpBase *> entries = [] {
        std::vector<const OpBase *> list;
        for (const auto &group : {Ops::instanceOps(), Ops::queueOps(), Ops::cronOps(), Ops::lockOps(), Ops::cacheOps(), Ops::eventOps(), Ops::webhookOps(), Ops::mailOps()})
            list.insert(list.end(), group.begin(), group.end());
        return list;
    }();
    return entries;
}

const OpBase *find(const QString &action)
{
    for (const OpBase *op : all()) {
        if (op->action() == action)
            return op;
    }
    return nullptr;
}

} // namespace Catalogue

} // namespace Switchyard::Admin
