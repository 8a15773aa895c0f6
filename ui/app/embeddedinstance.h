#pragma once

// "This computer": everything the console runs for its embedded engine, in the order it must
// start — the settings (app.ini, then the values kept in the keychain), the data directory's
// lock, the engine (LocalBackend) and its admin API (EmbeddedServer). main.cpp and the tests open
// the desktop app through this one class.
//
// On the first start the default event source gets a secret (kept in the keychain), so the URL
// and secret the Overview shows are all a forge needs.
//
// Threads: GUI thread; see LocalBackend and EmbeddedServer for theirs.

#include "app/embeddedserver.h"
#include "app/secretvault.h"

#include "admin/localbackend.h"

#include <QLockFile>

#include <memory>

namespace Switchyard::Console {

struct EmbeddedOptions
{
    QString configPath;      // --config; empty: defaultConfigPath() when that file exists
    QString dataDir;         // --data-dir; empty: [server] APP_DATA_PATH, else the user's data dir
    bool useKeychain = true; // false: kept values in the data directory's file (tests)
    int port = -1;           // the API's port: -1 as app.ini says; 0 any free one (tests)
    Admin::LocalBackendOptions backend;
};

class EmbeddedInstance final : public QObject
{
    Q_OBJECT
public:
    // ~/.config/switchyard/app.ini: the console's settings file (Preferences writes it).
    static QString defaultConfigPath();

    // Reads the settings and takes the data directory. InvalidArgument: the settings are wrong
    // (the message names file, line, key); Unavailable: another process holds the data directory
    // (daemonRunning() then says whether switchyardd's admin token is there to connect with).
    static Result<std::unique_ptr<EmbeddedInstance>> open(const EmbeddedOptions &options, QObject *parent = nullptr);
    ~EmbeddedInstance() override;

    // Starts the engine; the API listens once it is connected.
    void start();

    // The file Preferences edits (it may not exist yet), and whether it was given with --config.
    QString configPath() const { return m_configPath; }
    QString dataPath() const { return m_backend->config().dataPath(); }
    Admin::LocalBackend &backend() const { return *m_backend; }
    EmbeddedServer &server() const { return *m_server; }
    SecretVault &vault() const { return *m_vault; }
    // What went wrong with the kept values at start (a keychain that did not answer …): the
    // console says it; the engine runs without them.
    QStringList problems() const { return m_problems; }

private:
    EmbeddedInstance(QObject *parent) : QObject(parent) {}

    QString m_configPath;
    std::unique_ptr<QLockFile> m_lock;
    std::unique_ptr<SecretVault> m_vault;
    std::unique_ptr<Admin::LocalBackend> m_backend;
    std::unique_ptr<EmbeddedServer> m_server;
    QStringList m_problems;
};

} // namespace Switchyard::Console
