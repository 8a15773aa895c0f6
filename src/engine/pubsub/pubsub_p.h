#pragma once

// What a subscription's queue is made of; shared by the brokers, private to pubsub/.

#include <QByteArray>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace Switchyard::PubSubDetail {

struct Channel
{
    QString topic;
    std::mutex mutex;
    std::condition_variable_any changed;
    std::deque<QByteArray> queue; // guarded by mutex; at most kSubscriberBuffer
    bool closed = false;          // guarded by mutex
    QString reason;               // guarded by mutex
    qint64 dropped = 0;           // guarded by mutex
    std::function<void()> wakeup; // guarded by mutex
};

} // namespace Switchyard::PubSubDetail
