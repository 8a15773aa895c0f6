#include "theme.h"

#include "statuscolors.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace Switchyard::Console::Theme {

namespace {

QPalette &systemPalette()
{
    static QPalette palette;
    return palette;
}
bool captured = false;
Choice chosen = Choice::System;

QPalette lightPalette()
{
    QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette palette = fusion ? fusion->standardPalette() : systemPalette();
    delete fusion;
    return palette;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6), disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6e, 0x6e));
    p.setColor(QPalette::Link, QColor(0x64, 0xb5, 0xf6));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

void captureSystemPalette()
{
    if (captured)
        return;
    systemPalette() = QApplication::palette();
    captured = true;
}

void apply(Choice choice)
{
    captureSystemPalette();
    chosen = choice;
    switch (choice) {
    case Choice::System: QApplication::setPalette(systemPalette()); break;
    case Choice::Light: QApplication::setPalette(lightPalette()); break;
    case Choice::Dark: QApplication::setPalette(darkPalette()); break;
    }
}

Choice current()
{
    return chosen;
}

QString name(Choice choice)
{
    switch (choice) {
    case Choice::Light: return QStringLiteral("light");
    case Choice::Dark: return QStringLiteral("dark");
    case Choice::System: break;
    }
    return QStringLiteral("system");
}

Choice fromName(const QString &value)
{
    if (value == QLatin1String("light"))
        return Choice::Light;
    if (value == QLatin1String("dark"))
        return Choice::Dark;
    return Choice::System;
}

void restore()
{
    captureSystemPalette();
    const Choice choice = fromName(QSettings().value(QStringLiteral("theme")).toString());
    if (choice != Choice::System)
        apply(choice);
}

namespace {
class ChartFollower : public QObject
{
public:
    explicit ChartFollower(QChartView *view) : QObject(view), m_view(view) { apply(); }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view && event->type() == QEvent::PaletteChange)
            apply();
        return false;
    }

private:
    void apply()
    {
        const QChart::ChartTheme theme = isDark(m_view->palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
        if (m_view->chart() && m_view->chart()->theme() != theme)
            m_view->chart()->setTheme(theme);
    }
    QChartView *m_view;
};
} // namespace

void followPalette(QChartView *view)
{
    view->installEventFilter(new ChartFollower(view));
}

} // namespace Switchyard::Console::Theme
