#include "status.h"

namespace Switchyard {

QString Status::codeName(Code code)
{
    switch (code) {
    case Code::Ok: return QStringLiteral("ok");
    case Code::InvalidArgument: return QStringLiteral("invalid argument");
    case Code::NotFound: return QStringLiteral("not found");
    case Code::AlreadyExists: return QStringLiteral("already exists");
    case Code::Conflict: return QStringLiteral("conflict");
    case Code::Cancelled: return QStringLiteral("cancelled");
    case Code::DeadlineExceeded: return QStringLiteral("deadline exceeded");
    case Code::Unavailable: return QStringLiteral("unavailable");
    case Code::Corruption: return QStringLiteral("corruption");
    case Code::Internal: return QStringLiteral("internal error");
    case Code::Unauthenticated: return QStringLiteral("unauthenticated");
    case Code::PermissionDenied: return QStringLiteral("permission denied");
    }
    return QStringLiteral("unknown");
}

namespace {
constexpr Status::Code kCodes[] = {
    Status::Code::Ok,          Status::Code::InvalidArgument,  Status::Code::NotFound,    Status::Code::AlreadyExists,
    Status::Code::Conflict,    Status::Code::Cancelled,        Status::Code::DeadlineExceeded, Status::Code::Unavailable,
    Status::Code::Corruption,  Status::Code::Internal,         Status::Code::Unauthenticated,  Status::Code::PermissionDenied,
};
} // namespace

QString Status::codeKey(Code code)
{
    if (code == Code::Internal)
        return QStringLiteral("internal");
    return codeName(code).replace(u' ', u'_');
}

std::optional<Status::Code> Status::codeFromKey(const QString &key)
{
    for (Code code : kCodes) {
        if (codeKey(code) == key)
            return code;
    }
    return std::nullopt;
}

QString Status::toString() const
{
    if (isOk())
        return codeName(m_code);
    return codeName(m_code) + QStringLiteral(": ") + m_message;
}

} // namespace Switchyard
