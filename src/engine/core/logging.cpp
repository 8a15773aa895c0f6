#include "logging.h"

Q_LOGGING_CATEGORY(lcCore, "switchyard.core", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSettings, "switchyard.settings", QtInfoMsg)
