#pragma once

// Settings the console keeps out of app.ini: event sources' secrets and the mail password. In the
// system keychain (QtKeychain) when there is one; without one (no session bus, no Secret Service,
// CI), in <data dir>/kept-settings.ini, mode 0600 inside the 0700 data directory — and the
// Preferences dialog says which. The engine gets them at start (Admin::KeptSetting), set over
// app.ini's values.
//
// The names of what is kept (never the values) are listed in kept-settings.ini's [index], so the
// console knows what to read back from a keychain, which cannot be enumerated. A name listed but
// not read (the keychain timed out, is locked, refused) is "unread": it is never replaced by a new
// value on its own (a forge holds the old one) — problems() says why it is missing.
//
// Thread-safety: GUI thread only. load() and store() wait for the keychain (bounded, each call).

#include "admin/startup.h"

#include <QObject>
#include <QString>

#include <vector>

namespace Switchyard::Console {

class SecretVault final : public QObject
{
    Q_OBJECT
public:
    static constexpr int kKeychainWaitMs = 5000;

    // `dataPath`: the embedded engine's data directory. `useKeychain` false: the file only (tests).
    explicit SecretVault(QString dataPath, bool useKeychain = true, QObject *parent = nullptr);

    // Everything kept, read now; what cannot be read is left out, listed in unread() and said in
    // problems().
    std::vector<Admin::KeptSetting> load();
    // What load() and store() read and wrote since: no keychain is asked.
    const std::vector<Admin::KeptSetting> &kept() const { return m_values; }
    QStringList problems() const { return m_problems; }
    // Whether `section`/`key` is listed as kept (read or not).
    bool isListed(const QString &section, const QString &key) const;
    bool isUnread(const QString &section, const QString &key) const;
    // Where values go: "the system keychain" or the file's path.
    QString whereKept() const;
    bool usesKeychain() const { return m_keychain; }

    // Keeps `value` (empty: forgets it), waiting for the keychain. Without a keychain service
    // (none answers), this and every other kept value move to the file; a refusal (a cancelled
    // prompt, a locked keychain) is returned and nothing changes.
    Status store(const QString &section, const QString &key, const QByteArray &value);
    // The value kept now (after load() or store()), else empty.
    QByteArray value(const QString &section, const QString &key) const;

    // A fresh random secret (32 bytes, hex), as forges accept it.
    static QByteArray newSecret();

private:
    QString filePath() const;
    // Writes [index] (and without a keychain [values]) from m_values plus the unread names.
    Status writeFile();
    Status runKeychainJob(const QString &name, const QByteArray *write, QByteArray *read, bool remove);

    QString m_dataPath;
    bool m_keychain;
    QStringList m_problems;
    QStringList m_unread; // listed names the last load() could not read
    std::vector<Admin::KeptSetting> m_values;
};

} // namespace Switchyard::Console
