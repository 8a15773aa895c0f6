#pragma once

// Internal to the LevelDB queue (levelqueue.cpp, levelopen.cpp): its key layout, described in
// levelqueue.h. Pure functions: any thread.

#include <QByteArray>

#include <leveldb/slice.h>

#include <string>

namespace Switchyard::LevelKeys {

// Sequence numbers start in the middle so items can be put back in front of the head.
constexpr quint64 kMiddle = quint64(1) << 62;
constexpr char kQueued = 'q';
constexpr char kHeadMark = 'h';        // key 'h' → the head: every 'q' key below it was popped
constexpr char kLegacyInFlight = 'f';  // popped items before #22's rework (converted at open)
constexpr char kMember = 'u';

// `seq` big-endian into bytes at..at+7 of `into`.
inline void putSeq(std::string &into, size_t at, quint64 seq)
{
    for (int i = 0; i < 8; ++i)
        into[at + size_t(7 - i)] = char((seq >> (8 * i)) & 0xff);
}

inline std::string encodeSeq(quint64 seq)
{
    std::string bytes(8, '\0');
    putSeq(bytes, 0, seq);
    return bytes;
}

inline std::string seqKey(char prefix, quint64 seq)
{
    std::string key(9, prefix);
    putSeq(key, 1, seq);
    return key;
}

// The big-endian sequence at `from` (a key's, after its prefix; a mark's value, at 0).
inline quint64 seqOf(const leveldb::Slice &bytes, size_t from = 1)
{
    quint64 seq = 0;
    for (size_t i = from; i < from + 8 && i < bytes.size(); ++i)
        seq = (seq << 8) | quint8(bytes[i]);
    return seq;
}

inline std::string memberKey(const QByteArray &data)
{
    std::string key(1, kMember);
    key.append(data.constData(), size_t(data.size()));
    return key;
}

inline leveldb::Slice slice(const QByteArray &data)
{
    return leveldb::Slice(data.constData(), size_t(data.size()));
}

}  // namespace Switchyard::LevelKeys
