#pragma once

// Settings the console keeps out of app.ini: event sources' secrets and the mail password. In the
// system keychain (QtKeychain) when there is one; without one (a server without a desktop
// session, CI), in <data dir>/kept-settings.ini, mode 0600 inside the 0700 data directory — and
// the Preferences dialog says which. The engine gets them at start (Admin::KeptSetting), set over
// app.ini's values.
//
// The names of what is kept (never the values) are listed in kept-settings.ini's [index], so the
// console knows what to read back from a keychain, which cannot be enumerated.
//
// Thread-safety: GUI thread only. load() waits for the keychain (bounded); the rest is async.

#include "admin/startup.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace Switchyard::Console {

class SecretVault final : public QObject
{
    Q_OBJECT
public:
    // `dataPath`: the embedded engine's data directory. `useKeychain` false: the file only (tests).
    explicit SecretVault(QString dataPath, bool useKeychain = true, QObject *parent = nullptr);

    // Everything kept, read now (waits at most a few seconds for the keychain; what it cannot read
    // is left out and reported in problems()).
    std::vector<Admin::KeptSetting> load();
    QStringList problems() const { return m_problems; }
    // Where values go: "the system keychain" or the file's path.
    QString whereKept() const;
    bool usesKeychain() const { return m_keychain; }

    // Keeps or forgets one value (an empty value forgets it). `done` gets the outcome.
    void put(const QString &section, const QString &key, const QByteArray &value, QObject *context, std::function<void(Status)> done);
    // The value kept now (after load() or put()), else empty.
    QByteArray value(const QString &section, const QString &key) const;

    // A fresh random secret (32 bytes, hex), as forges accept it.
    static QByteArray newSecret();

private:
    QString filePath() const;
    Status writeFile(const QString &name, const QByteArray &value);
    QStringList index() const;
    Status writeIndex(const QString &name, bool present);

    QString m_dataPath;
    bool m_keychain;
    QStringList m_problems;
    std::vector<Admin::KeptSetting> m_values;
};

} // namespace Switchyard::Console
