// Build tool: renders the application icon's SVG into the PNG sizes of the hicolor theme.
// rendericons <svg> <output dir> <size>...  writes <output dir>/<size>x<size>/apps/switchyard.png
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 4) {
        QTextStream(stderr) << "usage: rendericons <svg> <output dir> <size>...\n";
        return 2;
    }
    QSvgRenderer renderer(args[1]);
    if (!renderer.isValid()) {
        QTextStream(stderr) << "rendericons: " << args[1] << " is not a valid SVG\n";
        return 1;
    }
    for (qsizetype i = 3; i < args.size(); ++i) {
        const int size = args[i].toInt();
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args[2]).arg(size);
        const QString file = dir + QStringLiteral("/switchyard.png");
        if (!QDir().mkpath(dir) || !image.save(file)) {
            QTextStream(stderr) << "rendericons: cannot write " << file << '\n';
            return 1;
        }
    }
    return 0;
}
