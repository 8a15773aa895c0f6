#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace Switchyard {

// Errors are values at subsystem boundaries (leveldb's Status). A Status is either ok or carries a
// code and a human-readable message; the admin API maps codes to HTTP statuses in one table.
// Thread-safety: a value type; distinct instances may be used from any thread.
class Status
{
public:
    enum class Code {
        Ok,
        InvalidArgument,   // bad input from a caller or a config file
        NotFound,
        AlreadyExists,     // includes a unique queue's AlreadyInQueue
        Conflict,          // e.g. a task that is already running
        Cancelled,         // the caller's cancellation token fired
        DeadlineExceeded,  // a deadline or timeout passed (a full queue after its wait)
        Unavailable,       // infrastructure (Redis, disk, network) unreachable
        Corruption,        // stored data that cannot be decoded
        Internal,
        Unauthenticated,   // a remote instance refused the credentials (HTTP 401)
        PermissionDenied,  // the credentials may not do this (HTTP 403: a read-only token)
    };

    Status() = default;
    Status(Code code, QString message) : m_code(code), m_message(std::move(message)) {}

    static Status ok() { return {}; }
    static Status invalidArgument(QString m) { return {Code::InvalidArgument, std::move(m)}; }
    static Status notFound(QString m) { return {Code::NotFound, std::move(m)}; }
    static Status alreadyExists(QString m) { return {Code::AlreadyExists, std::move(m)}; }
    static Status conflict(QString m) { return {Code::Conflict, std::move(m)}; }
    static Status cancelled(QString m) { return {Code::Cancelled, std::move(m)}; }
    static Status deadlineExceeded(QString m) { return {Code::DeadlineExceeded, std::move(m)}; }
    static Status unavailable(QString m) { return {Code::Unavailable, std::move(m)}; }
    static Status corruption(QString m) { return {Code::Corruption, std::move(m)}; }
    static Status internal(QString m) { return {Code::Internal, std::move(m)}; }
    static Status unauthenticated(QString m) { return {Code::Unauthenticated, std::move(m)}; }
    static Status permissionDenied(QString m) { return {Code::PermissionDenied, std::move(m)}; }

    bool isOk() const { return m_code == Code::Ok; }
    explicit operator bool() const { return isOk(); }
    Code code() const { return m_code; }
    const QString &message() const { return m_message; }

    // The input field the error is about ("max_workers", "qid"), when it is about one.
    const QString &field() const { return m_field; }
    Status withField(QString field) const &
    {
        Status s = *this;
        s.m_field = std::move(field);
        return s;
    }

    // "<code name>: <message>", for logs.
    QString toString() const;
    static QString codeName(Code code);
    // The code's stable machine name ("invalid_argument", "conflict" …), as the admin API sends it;
    // codeFromKey() reads it back (nullopt for a name this build does not know).
    static QString codeKey(Code code);
    static std::optional<Code> codeFromKey(const QString &key);

private:
    Code m_code = Code::Ok;
    QString m_message;
    QString m_field;
};

// Either a value or a non-ok Status (C++23's std::expected, minus what we do not need).
template<typename T>
class Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Status error) : m_value(std::move(error))
    {
        if (std::get<Status>(m_value).isOk())
            m_value = Status::internal(QStringLiteral("Result constructed from an ok Status without a value"));
    }

    bool isOk() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return isOk(); }

    // Precondition: isOk().
    T &value() & { return std::get<T>(m_value); }
    const T &value() const & { return std::get<T>(m_value); }
    T &&value() && { return std::get<T>(std::move(m_value)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    // The error, or an ok Status when a value is held.
    Status status() const { return isOk() ? Status() : std::get<Status>(m_value); }
    T valueOr(T fallback) const { return isOk() ? value() : std::move(fallback); }

private:
    std::variant<T, Status> m_value;
};

} // namespace Switchyard
