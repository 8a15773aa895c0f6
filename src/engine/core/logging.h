#pragma once

#include <QLoggingCategory>

// One logging category per subsystem; enable with QT_LOGGING_RULES="switchyard.core.debug=true".
// Log lines never contain secrets (tokens, passwords, authorization headers).
Q_DECLARE_LOGGING_CATEGORY(lcCore)
Q_DECLARE_LOGGING_CATEGORY(lcSettings)
