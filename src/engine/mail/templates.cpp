// Templates (Mustache), Markdown (cmark-gfm), the catalogues' sentences and the subject rules: the
// one file that includes the Mustache header (it is large) and cmark's.
#include "mail_p.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <kainjow/mustache.hpp>

#include <mutex>

static void initMailResources()
{
    Q_INIT_RESOURCE(engine); // resources/engine.qrc is in a static library: referenced explicitly
}

namespace Switchyard::Mail {

namespace {

namespace mstch = kainjow::mustache;

const QString kRoot = QStringLiteral(":/switchyard/mail/");

QString readResource(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

mstch::data toData(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object: {
        mstch::data d{mstch::data::type::object};
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            d.set(it.key().toStdString(), toData(it.value()));
        return d;
    }
    case QJsonValue::Array: {
        mstch::data list{mstch::data::type::list};
        for (const QJsonValue &item : value.toArray())
            list.push_back(toData(item));
        return list;
    }
    case QJsonValue::Bool:
        return mstch::data(value.toBool());
    case QJsonValue::Double: {
        const double n = value.toDouble();
        return mstch::data(n == double(qint64(n)) ? std::to_string(qint64(n)) : std::to_string(n));
    }
    case QJsonValue::String:
        return mstch::data(value.toString().toStdString());
    default:
        return mstch::data(mstch::data::type::bool_false); // null: a section that does not render
    }
}

// The first line of three or more dashes (alone on its line) splits subject from body.
std::pair<QString, QString> splitSubject(const QString &source)
{
    static const QRegularExpression split(QStringLiteral("^-{3,}\\s*$"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = split.match(source);
    if (!m.hasMatch())
        return {QString(), source};
    QString body = source.mid(m.capturedEnd());
    if (body.startsWith(u'\n'))
        body.remove(0, 1);
    return {source.left(m.capturedStart()), body};
}

struct Catalogues
{
    std::map<QString, QJsonObject> byLanguage; // "en-US", "zh-CN"
    QHash<QString, QString> emoji;             // "tada" → 🎉
};

const Catalogues &catalogues()
{
    static const Catalogues c = [] {
        initMailResources();
        Catalogues out;
        for (const char *lang : {"en-US", "zh-CN"}) {
            QFile file(QStringLiteral(":/switchyard/translations/%1.json").arg(QLatin1String(lang)));
            if (file.open(QIODevice::ReadOnly))
                out.byLanguage[QLatin1String(lang)] = QJsonDocument::fromJson(file.readAll()).object();
        }
        QFile emoji(kRoot + QStringLiteral("emoji.json"));
        if (emoji.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(emoji.readAll()).object();
            for (auto it = o.begin(); it != o.end(); ++it)
                out.emoji.insert(it.key(), it.value().toString());
        }
        return out;
    }();
    return c;
}

} // namespace

// ---- templates ----

struct Templates::Private
{
    std::map<QString, QString> sources;  // name → .tmpl source
    std::map<QString, QString> texts;    // name → .txt source
    std::map<std::string, std::string> partials;
};

Templates::Templates(const std::map<QString, QString> &overrides) : d(std::make_unique<Private>())
{
    initMailResources();
    QDirIterator it(kRoot, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = path.mid(kRoot.size());
        if (relative.endsWith(QLatin1String(".tmpl"))) {
            const QString name = relative.chopped(5);
            if (name.startsWith(QLatin1String("base/")))
                d->partials[name.toStdString()] = readResource(path).toStdString();
            else
                d->sources[name] = readResource(path);
        } else if (relative.endsWith(QLatin1String(".txt"))) {
            d->texts[relative.chopped(4)] = readResource(path);
        }
    }
    for (const auto &[name, source] : overrides)
        d->sources[name] = source;
}

Templates::~Templates() = default;

bool Templates::has(const QString &name) const
{
    return d->sources.count(name) > 0;
}

QStringList Templates::names() const
{
    QStringList out;
    for (const auto &[name, source] : d->sources)
        out << name;
    return out;
}

Result<Rendered> Templates::render(const QString &name, const QJsonObject &values) const
{
    const auto found = d->sources.find(name);
    if (found == d->sources.end())
        return Status::invalidArgument(QStringLiteral("mail template %1 does not exist").arg(name));
    mstch::data data = toData(values);
    for (const auto &[partialName, source] : d->partials) {
        const std::string text = source;
        data.set(partialName, mstch::partial([text] { return text; }));
    }
    const auto [subjectSource, bodySource] = splitSubject(found->second);
    const auto run = [&](const QString &source, bool escape, const char *part) -> Result<QString> {
        mstch::mustache tmpl(source.toStdString());
        if (!escape)
            tmpl.set_custom_escape([](const std::string &s) { return s; });
        if (!tmpl.is_valid())
            return Status::invalidArgument(QStringLiteral("mail template %1 (%2): %3")
                                               .arg(name, QLatin1String(part), QString::fromStdString(tmpl.error_message())));
        std::string out = tmpl.render(data);
        if (!tmpl.is_valid())
            return Status::invalidArgument(QStringLiteral("mail template %1 (%2): %3")
                                               .arg(name, QLatin1String(part), QString::fromStdString(tmpl.error_message())));
        return QString::fromStdString(out);
    };
    Rendered rendered;
    Result<QString> subject = run(subjectSource, false, "subject");
    if (!subject)
        return subject.status();
    rendered.subject = subject->trimmed();
    Result<QString> html = run(bodySource, true, "body");
    if (!html)
        return html.status();
    rendered.html = *html;
    const auto text = d->texts.find(name);
    if (text == d->texts.end())
        return Status::invalidArgument(QStringLiteral("mail template %1 has no plain-text body (%1.txt)").arg(name));
    Result<QString> plain = run(text->second, false, "text");
    if (!plain)
        return plain.status();
    rendered.text = *plain;
    return rendered;
}

// ---- Markdown ----

QString markdownToHtml(const QString &markdown, const QString &baseUrl)
{
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });
    const int options = CMARK_OPT_DEFAULT | CMARK_OPT_GITHUB_PRE_LANG; // not UNSAFE: raw HTML is escaped
    cmark_parser *parser = cmark_parser_new(options);
    for (const char *name : {"table", "strikethrough", "autolink", "tasklist"})
        if (cmark_syntax_extension *extension = cmark_find_syntax_extension(name))
            cmark_parser_attach_syntax_extension(parser, extension);
    const QByteArray utf8 = markdown.toUtf8();
    cmark_parser_feed(parser, utf8.constData(), size_t(utf8.size()));
    cmark_node *document = cmark_parser_finish(parser);

    // Relative links and images resolved against the base (the repository's page).
    const QUrl base(baseUrl.endsWith(u'/') || baseUrl.isEmpty() ? baseUrl : baseUrl + u'/');
    if (base.isValid() && !base.isRelative()) {
        cmark_iter *iter = cmark_iter_new(document);
        for (cmark_event_type ev; (ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
            cmark_node *node = cmark_iter_get_node(iter);
            const cmark_node_type type = cmark_node_get_type(node);
            if (ev != CMARK_EVENT_ENTER || (type != CMARK_NODE_LINK && type != CMARK_NODE_IMAGE))
                continue;
            const QString url = QString::fromUtf8(cmark_node_get_url(node));
            if (url.isEmpty() || url.startsWith(u'#'))
                continue;
            const QUrl target(url);
            if (target.isRelative())
                cmark_node_set_url(node, base.resolved(target).toString(QUrl::FullyEncoded).toUtf8().constData());
        }
        cmark_iter_free(iter);
    }
    char *html = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser));
    const QString out = QString::fromUtf8(html);
    free(html);
    cmark_node_free(document);
    cmark_parser_free(parser);
    return out;
}

// ---- catalogues ----

QString catalogueLanguage(const QString &lang)
{
    const QString l = lang.trimmed().toLower().replace(u'_', u'-');
    if (l.startsWith(QLatin1String("zh")) && !l.startsWith(QLatin1String("zh-tw")) && !l.startsWith(QLatin1String("zh-hk")))
        return QStringLiteral("zh-CN");
    return QStringLiteral("en-US");
}

QString translate(const QString &lang, const QString &key, const QStringList &args)
{
    const Catalogues &c = catalogues();
    QString text;
    if (const auto it = c.byLanguage.find(catalogueLanguage(lang)); it != c.byLanguage.end())
        text = it->second.value(key).toString();
    if (text.isEmpty())
        if (const auto it = c.byLanguage.find(QStringLiteral("en-US")); it != c.byLanguage.end())
            text = it->second.value(key).toString();
    if (text.isEmpty())
        text = key;
    // %1 … in one pass: an argument that holds "%2" itself (a title) stays as it is.
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'%' && i + 1 < text.size() && text[i + 1].isDigit()) {
            const int n = text[i + 1].digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args[n - 1];
                ++i;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

QString replaceEmojiAliases(const QString &text)
{
    if (!text.contains(u':'))
        return text;
    static const QRegularExpression alias(QStringLiteral(":([a-z0-9_+-]+):"));
    const QHash<QString, QString> &emoji = catalogues().emoji;
    QString out;
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = alias.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const auto found = emoji.constFind(m.captured(1));
        if (found == emoji.constEnd())
            continue;
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += *found;
        last = m.capturedEnd();
    }
    return out + text.mid(last);
}

QString sanitizeSubject(const QString &subject)
{
    QString one = subject.simplified(); // line breaks and runs of white space: one space
    const QList<uint> runes = one.toUcs4();
    if (runes.size() > 256)
        one = QString::fromUcs4(reinterpret_cast<const char32_t *>(runes.constData()), 256);
    return one;
}

} // namespace Switchyard::Mail
