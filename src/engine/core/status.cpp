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

QString Status::toString() const
{
    if (isOk())
        return codeName(m_code);
    return codeName(m_code) + QStringLiteral(": ") + m_message;
}

} // namespace Switchyard
