// switchyardctl: the command-line client. Today: offline helpers; the admin API commands come with
// the server (list/flush queues, run cron, redeliver, …).
//
//   switchyardctl next "<schedule>" [--count N] [--tz ZONE]
#include "engine/core/version.h"
#include "engine/cron/schedule.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace Switchyard;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyardctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Switchyard command-line client.\n\n"
                                                    "Commands:\n"
                                                    "  next <schedule>   print the next firing times of a cron schedule"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption countOption(QStringLiteral("count"), QStringLiteral("How many firings (default 5)."), QStringLiteral("N"),
                                         QStringLiteral("5"));
    const QCommandLineOption zoneOption(QStringLiteral("tz"), QStringLiteral("Time zone (default: this computer's)."), QStringLiteral("zone"));
    parser.addOptions({countOption, zoneOption});
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("next"));
    parser.process(app);

    QTextStream out(stdout);
    QTextStream err(stderr);
    const QStringList args = parser.positionalArguments();
    if (args.isEmpty()) {
        err << "switchyardctl: missing command; see --help\n";
        return 2;
    }
    if (args.first() != QLatin1String("next")) {
        err << "switchyardctl: unknown command \"" << args.first() << "\"; valid: next\n";
        return 2;
    }
    if (args.size() != 2) {
        err << "switchyardctl: usage: switchyardctl next \"<schedule>\" [--count N] [--tz ZONE]\n";
        return 2;
    }
    bool ok = false;
    const int count = parser.value(countOption).toInt(&ok);
    if (!ok || count < 1 || count > 10000) {
        err << "switchyardctl: --count must be a number from 1 to 10000\n";
        return 2;
    }
    QTimeZone zone = QTimeZone::systemTimeZone();
    if (parser.isSet(zoneOption)) {
        zone = QTimeZone(parser.value(zoneOption).toUtf8());
        if (!zone.isValid()) {
            err << "switchyardctl: unknown time zone \"" << parser.value(zoneOption) << "\" (e.g. UTC, Europe/Berlin)\n";
            return 2;
        }
    }
    const Result<Schedule> schedule = Schedule::parse(args.at(1));
    if (!schedule) {
        err << "switchyardctl: " << schedule.status().message() << '\n';
        return 2;
    }
    const QList<QDateTime> firings = schedule->nextFirings(QDateTime::currentDateTimeUtc(), zone, count);
    if (firings.isEmpty()) {
        err << "switchyardctl: \"" << args.at(1) << "\" never fires\n";
        return 1;
    }
    for (const QDateTime &firing : firings)
        out << firing.toString(Qt::ISODate) << '\n';
    return 0;
}
