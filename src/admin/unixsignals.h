#pragma once

#include <QObject>

#include <initializer_list>

class QSocketNotifier;

// Turns SIGINT/SIGTERM into a Qt signal on the main thread, without an asynchronous signal
// handler: the signals are blocked in every thread (blockSignals() must run first in main(), before
// any thread exists, so that threads inherit the mask) and read from a signalfd. A signal sent
// before the notifier exists stays pending and is delivered then. Linux only. One per process.
class UnixSignals : public QObject
{
    Q_OBJECT

public:
    static void blockSignals(std::initializer_list<int> signalNumbers);

    explicit UnixSignals(std::initializer_list<int> signalNumbers, QObject *parent = nullptr);
    ~UnixSignals() override;

Q_SIGNALS:
    void received(int signalNumber);

private:
    void readPending();

    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr; // Owned (Qt parent).
};
