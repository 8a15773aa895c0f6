<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Card</name>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not scheduled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At minute 0 of every hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 00:00 every day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 00:00 every Sunday</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 00:00 on day 1 of every month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 00:00 on 1 January</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Monday to Friday</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on day %1 of every month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At %1:%2 %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At minute %1 of every hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every %1 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every %1 seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every %1 hours, at minute %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HookDialog</name>
    <message>
        <source>Webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Installed on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository or owner &amp;id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository or owner id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://ci.example.com/hooks/gitea</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for people: what this hook is for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP &amp;method:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Content type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Secret:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signs each delivery (X-Hub-Signature-256)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Authorization header:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authorization header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Bearer …; sealed at rest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Branch filter:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Branch filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>glob: main, release-*, {main,dev}; empty: every branch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Active: deliver events (off: deliveries are recorded as skipped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Push only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Everything (26 events)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose events:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events to deliver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hannel:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#ops (required)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post &amp;as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the name shown on messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Icon URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://… (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;lour:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>good, warning, danger or #rrggbb (pushes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;vatar URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hat id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-100… (or in the URL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Th&amp;read id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a topic of the chat (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message t&amp;ype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m.notice (default) or m.text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pac&amp;kage URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://github.com/acme/lib (required)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>Self-check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run self-check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent notices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail</source>
        <translation>邮件</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>From</source>
        <translation>发件人</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Since start</source>
        <translation>自启动以来</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Send test mail…</source>
        <translation>发送测试邮件…</translation>
    </message>
    <message>
        <source>Send a test mail</source>
        <translation>发送一封测试邮件</translation>
    </message>
</context>
<context>
    <name>Pages</name>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cron</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache &amp; QoS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation type="unfinished">通知</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>no token is stored for this instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keychain service is running (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

(the first %1 of %2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::FlushJob</name>
    <message>
        <source>Flush queue %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection is closing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flush cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::LocalBackend</name>
    <message>
        <source>This computer (embedded engine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting the embedded engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the embedded engine is shutting down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the embedded engine is still starting</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::RemoteBackend</name>
    <message>
        <source>the stream stopped answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is unreachable: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered with a redirect to %2; it is not followed, since the token would go along (connect to the address you trust instead)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the instance no longer accepts this token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the view went away</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reconnecting to %1 (attempt %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no admin API v%2 (is this a Switchyard instance?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>incompatible version: the instance (Switchyard %1) speaks admin API v%2; this console speaks v%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unauthorised: %1 refused the token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only token: changes are disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable: %1 — retrying in %2 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::AuditModel</name>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished">发件人</translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::AuditPage</name>
    <message>
        <source>&lt;h3&gt;Nothing changed yet&lt;/h3&gt;&lt;p&gt;Every change made through the admin API or this console — a flush, a Run now, a forced lock release — is recorded here with who made it, from where and how it ended. Reading is never recorded.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the audit log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CachePage</name>
    <message>
        <source>Cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run self-check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete, put and get a 500-byte test value; slow above 30 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run yet. The check is slow above 30 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QoS admission control</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QoS requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache information unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Adapter&lt;/b&gt; %1%2 · &lt;b&gt;item TTL&lt;/b&gt; %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Hits&lt;/b&gt; %1 · &lt;b&gt;misses&lt;/b&gt; %2 · &lt;b&gt;hit ratio&lt;/b&gt; %3 %&lt;br&gt;&lt;b&gt;Latency&lt;/b&gt; p50 %4 ms · p99 %5 ms · &lt;b&gt;evictions&lt;/b&gt; %6 · &lt;b&gt;errors&lt;/b&gt; %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · &lt;b&gt;items&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;2Q&lt;/b&gt; recent %1 · frequent %2 · ghost %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Enabled&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Disabled&lt;/b&gt; (&lt;code&gt;[qos] ENABLED = false&lt;/code&gt;): requests are not queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;In flight&lt;/b&gt; %1 of %2 · &lt;b&gt;waiting&lt;/b&gt; %3 of %4 · &lt;b&gt;target wait&lt;/b&gt; %5 ms&lt;br&gt;&lt;b&gt;Admitted&lt;/b&gt; %6 · &lt;b&gt;dropped&lt;/b&gt; high %7 · default %8 · low %9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache self-check failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache self-check slow: %1 ms (threshold %2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache self-check passed in %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The check could not run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✗ Failed after %1 ms: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Slow: %1 ms (threshold %2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ OK in %1 ms (threshold %2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ConnectDialog</name>
    <message>
        <source>Connect to an instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a Switchyard daemon&apos;s admin API. Tokens are made with &lt;code&gt;switchyardctl token create NAME --role admin|read-only&lt;/code&gt; on its machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>production</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only for a self-signed certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;CA certificate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remember this instance (the token goes to the system keychain)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the instance&apos;s URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The URL must be http:// or https:// with a host, e.g. https://forge.example.org:3300/api/v1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a token for this instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate file does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: plain http to another machine sends the token in clear text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronModel</name>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronPage</name>
    <message>
        <source>&lt;h3&gt;No cron tasks&lt;/h3&gt;&lt;p&gt;Built-in tasks register when the engine starts; your own run a &lt;code&gt;COMMAND&lt;/code&gt; or call a &lt;code&gt;URL&lt;/code&gt; from a &lt;code&gt;[cron.&amp;lt;name&amp;gt;]&lt;/code&gt; section of &lt;code&gt;app.ini&lt;/code&gt; — see docs/cron.md.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the task now, whatever its schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip scheduled runs until resumed (on every instance); Run now still works</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the cron tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to see its runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the runs of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has not run since the engine started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is already running; its result will show here when it finishes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused %1: scheduled runs are skipped until you resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pausing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resuming %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronRunModel</name>
    <message>
        <source>skipped: another instance holds the task&apos;s lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: another instance ran this tick</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: the task is paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: Redis could not be reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Doer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DeliveryExportJob</name>
    <message>
        <source>Exporting deliveries to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export cancelled after %1 deliveries; nothing was written</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EventModel</name>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sender</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source %1, delivery %2, trace %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ForgeUserModel</name>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (bot)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HistoryChart</name>
    <message>
        <source>in the last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the last 90 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue shown in the history chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Period of the history chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour, per minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days, per hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 90 days, per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Queue:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processed and failed items over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processed · %2 failed %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookDialog</name>
    <message>
        <source>a repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an organisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the whole instance (system)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (application/json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>form (payload=…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit webhook %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set — leave empty to keep it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed with the new URL — enter it again to keep one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored Authorization header is not sent to a new URL: enter it again, or the hook is saved without one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookModel</name>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>push only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · branches %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repository %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>owner %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookTaskModel</name>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Took</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a redelivery of delivery %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scheduled retry %1 of delivery %2, due %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scheduled retry %1 of delivery %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (retry %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interrupted: instance %1 stopped during the delivery (%2); it may or may not have arrived.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interrupted: instance %1 ended during the delivery (%2); it may or may not have arrived.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent again under the same delivery id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent again (RESEND_INTERRUPTED is off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · resent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (interrupted)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::InstanceView</name>
    <message>
        <source>Read-only connection: this token may look but not change anything, so the actions are disabled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected, read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shutting down…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>○ not live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>○ waiting for updates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>● live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◌ stale since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last seen %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not seen yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> &amp;nbsp;·&amp;nbsp; %1 &amp;nbsp;·&amp;nbsp; v%2 &amp;nbsp;·&amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; queues %4 · cache %5 · locks %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::LockModel</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This instance holds the lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held by another instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strictly increasing with every acquisition: resources refuse writes carrying an older token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (this instance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lease</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::LocksPage</name>
    <message>
        <source>&lt;h3&gt;No locks are held&lt;/h3&gt;&lt;p&gt;Cron runs, webhook deliveries and other exclusive work take a global lock while they run; they appear here with their holder, fencing token and lease. &lt;code&gt;[global_lock] SERVICE_TYPE&lt;/code&gt; chooses memory or Redis — see docs/locks.md.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the lock whoever holds it (asks first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A fencing token grows with every acquisition: a resource that remembers the highest token it saw refuses writes from a holder that lost its lock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force-release %1, held by %2 (fencing token %3)?

The holder will be told it lost the lock; work it does after that is not protected, and another process may take the lock at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released %1 (was held by %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was already released; nothing to do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force-releasing %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::MainWindow</name>
    <message>
        <source>Switchyard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (Ctrl+%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switchyard — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>○ not live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>console window closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instances and pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected to %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed by the operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect to an instance…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Saved instances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;lose this connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1; its token is in the system keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1, but %2: its token is kept for this session only and will be asked for next time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forgot %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shutting down…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NoticeModel</name>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NoticesPage</name>
    <message>
        <source>&lt;h3&gt;No system notices&lt;/h3&gt;&lt;p&gt;The engine writes a notice when something needs an operator: a cron task that failed (or succeeded, with &lt;code&gt;NOTICE_ON_SUCCESS&lt;/code&gt;), a lock that was force-released, queue data that was damaged. They appear here as they happen.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a notice to read all of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the notices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting notices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted 1 notice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1 notices</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NotificationModel</name>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NotificationsPage</name>
    <message>
        <source>Ingested events, newest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;No events yet&lt;/h3&gt;&lt;p&gt;Events arrive when a forge posts its webhooks to this instance&apos;s admin API: give a Gitea or GitHub webhook the URL &lt;code&gt;http://HOST:3300/api/v1/events?source=NAME&lt;/code&gt;, with the secret you set as &lt;code&gt;[event_source.NAME] SECRET&lt;/code&gt; in app.ini (or an &lt;code&gt;ingest&lt;/code&gt; token: &lt;code&gt;switchyardctl token create forge --role ingest&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;To try it with a saved payload: &lt;code&gt;switchyardctl events send push.json --event push&lt;/code&gt;. Each event is stored, then turned into notifications for the users who watch, take part or are mentioned; they appear below with their unread counts.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the newest event in view as events arrive (off: the list stays where you scrolled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the selected event produced: the notifications and feed rows of its trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Users of the forge, with their unread notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notification actions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a user to see their notifications.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark all read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every unread notification of the selected user becomes read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected user&apos;s notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n notification(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>What the trace holds, oldest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading trace %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Trace %1 began with %2 %3 (%4): %n item(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Marking a notification %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marked %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marking all notifications read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marked all notifications read</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::OverviewPage</name>
    <message>
        <source>Queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cron</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance information unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No notices: nothing needs your attention.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held, %1 by this instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hit ratio · %1 · p99 %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:large&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/span&gt; &amp;nbsp; Switchyard %2 · up %3&lt;br&gt;&lt;b&gt;Config&lt;/b&gt; %4 · &lt;b&gt;Data&lt;/b&gt; %5&lt;br&gt;&lt;b&gt;Queues&lt;/b&gt; %6 · &lt;b&gt;Cache&lt;/b&gt; %7 · &lt;b&gt;Locks&lt;/b&gt; %8 · &lt;b&gt;Database&lt;/b&gt; %9 · &lt;b&gt;Pub/sub&lt;/b&gt; %10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedded defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting in %1 queues · %2 items/s · %3 with failures · %4 paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n failing</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tasks · %2 running&lt;br&gt;next: %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>self-check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Getting events in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The URL to give a Gitea or GitHub webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the webhook URL to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processed and failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;This embedded engine has no admin API: forges post their webhooks to a daemon (&lt;code&gt;switchyardd&lt;/code&gt;), which this console connects to with &lt;b&gt;Connection ▸ Connect…&lt;/b&gt;.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;No event has arrived yet. Work comes in when a forge posts its webhooks to the admin API: in Gitea, &lt;i&gt;Settings ▸ Webhooks ▸ Add webhook&lt;/i&gt;; in GitHub, &lt;i&gt;Settings ▸ Webhooks&lt;/i&gt;; content type &lt;code&gt;application/json&lt;/code&gt;, the URL below (NAME is yours to choose).&lt;/p&gt;&lt;p&gt;Give the webhook a secret and set the same as &lt;code&gt;[event_source.NAME] SECRET&lt;/code&gt; in app.ini (or send an &lt;code&gt;ingest&lt;/code&gt; token: &lt;code&gt;switchyardctl token create forge --role ingest&lt;/code&gt;). To try it with a saved payload: &lt;code&gt;switchyardctl events send push.json --event push&lt;/code&gt;.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (schema %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail protocol</source>
        <translation>邮件协议</translation>
    </message>
    <message>
        <source>Mail server</source>
        <translation>邮件服务器</translation>
    </message>
    <message>
        <source>Mail sender</source>
        <translation>邮件发件人</translation>
    </message>
    <message>
        <source>Mail notifications</source>
        <translation>邮件通知</translation>
    </message>
    <message>
        <source>Mail sent and failed since start</source>
        <translation>自启动以来已发送和失败的邮件</translation>
    </message>
    <message>
        <source>Last mail error</source>
        <translation>最近的邮件错误</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only connection: a test mail needs an admin token</source>
        <translation>只读连接：发送测试邮件需要管理员令牌</translation>
    </message>
    <message>
        <source>The mailer is off: set [mailer] ENABLED = true in app.ini</source>
        <translation>邮件功能已关闭：请在 app.ini 中设置 [mailer] ENABLED = true</translation>
    </message>
    <message>
        <source>Send one mail with these settings to an address you choose</source>
        <translation>用这些设置向您指定的地址发送一封邮件</translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off ([mailer] ENABLED = false)</source>
        <translation>关闭（[mailer] ENABLED = false）</translation>
    </message>
    <message>
        <source>, with a login</source>
        <translation>，需要登录</translation>
    </message>
    <message>
        <source>— (logs only)</source>
        <translation>—（仅记录日志）</translation>
    </message>
    <message>
        <source>on: forge events are mailed</source>
        <translation>开启：代码平台事件会发送邮件</translation>
    </message>
    <message>
        <source>off: test mail only ([service] ENABLE_NOTIFY_MAIL)</source>
        <translation>关闭：仅测试邮件（[service] ENABLE_NOTIFY_MAIL）</translation>
    </message>
    <message>
        <source>%1 sent · %2 failed · %3 queued</source>
        <translation>已发送 %1 · 失败 %2 · 排队 %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send test mail</source>
        <translation>发送测试邮件</translation>
    </message>
    <message>
        <source>Send a test mail through %1 to:</source>
        <translation>通过 %1 发送测试邮件至：</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Sending a test mail to %1…</source>
        <translation>正在向 %1 发送测试邮件…</translation>
    </message>
    <message>
        <source>Sending a test mail to %1</source>
        <translation>向 %1 发送测试邮件</translation>
    </message>
    <message>
        <source>Test mail sent to %1</source>
        <translation>测试邮件已发送至 %1</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::Page</name>
    <message>
        <source>%1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed (%2).

%3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessJob</name>
    <message>
        <source>Following job %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled (at least %1 of %2 were done)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessModel</name>
    <message>
        <source>Process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancellable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessesPage</name>
    <message>
        <source>&lt;h3&gt;Nothing registered&lt;/h3&gt;&lt;p&gt;Worker pools, the cron scheduler, runs and admin jobs register here while they run.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the selected process and its children</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 had already ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueueItemsView</name>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh the waiting items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh the items in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting items, from the head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Items in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected item, pretty-printed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an item to see all of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected item to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No queue selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the items: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: nothing waits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: the %n waiting item(s), from the head.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the first %2 waiting items.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no item is being handled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n item(s) taken and not yet acknowledged.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueueModel</name>
    <message>
        <source>Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unique</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workers handling a batch / running / maximum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pushed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Items handled per second, last 10 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 items (LENGTH)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: items are accepted and kept, no worker takes them until you resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed, %2 undecodable, %3 acknowledgements failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueuesPage</name>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop handing items to workers; pushes are still accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handle every waiting item now, within the timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove all…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete every waiting item (asks first, naming how many)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set max workers…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timeout </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long a flush may take before it gives up (the items stay queued)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel flush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handled per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>items/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a queue to see its settings and its last 10 minutes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, batch %3, length %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, batch %3, length %4&lt;br&gt;%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — last 10 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused %1: items are kept until you resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pausing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resuming %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flushing %1: %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flushed %1: %2 items in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush of %1 timed out after %2; the remaining items stay queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flush of %1 cancelled; the remaining items stay queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flushing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting the items of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is empty: nothing to remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove all items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 items from %2?

The items are deleted without being handled. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed %1 items from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removing the items of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set max workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum workers for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 now runs at most %2 workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting the workers of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;No queues yet&lt;/h3&gt;&lt;p&gt;Queues are created by the subsystems that use them (webhook delivery, notifications, mail) when the engine starts them.&lt;br&gt;Their type, length, batch size and workers come from &lt;code&gt;[queue]&lt;/code&gt; and &lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt; in &lt;code&gt;app.ini&lt;/code&gt; — &lt;b&gt;Queue settings…&lt;/b&gt; in the toolbar shows which apply here; docs/queues.md has every key.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which [queue.*] settings of app.ini apply to which queue, and which queues the subsystems create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length and throughput chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In &amp;flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No queue selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no history yet — the chart starts with the next live updates (one a second).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the queue settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>webhook delivery (unique)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in-app notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mail notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>admin jobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>event ingestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the built-in defaults (no app.ini)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Settings come from %1: &lt;code&gt;[queue]&lt;/code&gt; applies to every queue (TYPE here: &lt;b&gt;%2&lt;/b&gt;), &lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt; overrides it key by key for one queue.&lt;/p&gt;&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th align=&apos;left&apos;&gt;queue&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;created by&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;type&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;from&lt;/th&gt;&lt;/tr&gt;%3&lt;/table&gt;&lt;p&gt;A queue appears on this page once the subsystem that uses it starts. For example:&lt;/p&gt;&lt;pre&gt;[queue.webhook_sender]
TYPE = redis
LENGTH = 10000
MAX_WORKERS = 4&lt;/pre&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Other sections in the configuration: %1.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue settings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::WebhooksPage</name>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;No webhooks yet&lt;/h3&gt;&lt;p&gt;A webhook sends the forge&apos;s events — pushes, issues, pull requests, releases … — to a URL, signed with its secret (&lt;code&gt;X-Hub-Signature-256&lt;/code&gt;), as Gitea does. Add one with &lt;b&gt;Add…&lt;/b&gt; above, or &lt;code&gt;switchyardctl hooks create --repo ID --url URL&lt;/code&gt;.&lt;/p&gt;&lt;p&gt;Events reach this instance at &lt;code&gt;/api/v1/events&lt;/code&gt;; each one a hook wants becomes a delivery, listed below with its request and response, and can be sent again.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a webhook to a repository, an organisation, a user or the whole instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the selected webhook&apos;s URL, events, secret or state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a test push to the selected webhook, whatever its events and branch filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected webhook and its delivery history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery actions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a webhook to see its deliveries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the selected deliveries again (each gets a new delivery id; the history keeps both)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected webhook&apos;s deliveries, newest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;sponse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent yet (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1 after %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer yet (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 webhook %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete webhook %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Deliveries to %1 stop, and its history of %n delivery(s) is deleted with it.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Deleting webhook %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted webhook %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing webhook %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued test delivery %1 to webhook %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redelivering %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Queued the delivery again</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Redeliver matching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send every delivery the filter matches again, as one job on the instance (status failed or unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write every delivery the filter matches to a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery job progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the delivery job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;tatus:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;vent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued within</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Within:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text in payload or response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the delivery figures…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery latency (ms), last minute or two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery figures unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Since start&lt;/b&gt; %1 succeeded · %2 failed · %3 skipped · &lt;b&gt;in flight&lt;/b&gt; %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Last minute or two&lt;/b&gt; %1 sent · p50 %2 ms · p99 %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Last minute or two&lt;/b&gt; nothing sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hook %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n matching delivery(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n delivery(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Send every delivery the filter matches again, as one job on the instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose status failed or unknown to redeliver what matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting the deliveries to redeliver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No delivery matches: nothing to redeliver</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Redeliver %n delivery(s)?</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each of the %n %1 delivery(s) the filter matches is sent again under a new delivery id, oldest first; the history keeps the originals. Receivers may see an event twice.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Redelivering the matching deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redelivering %1 deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redelivering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The redelivery job for %1 deliveries ended; a stop on an error would be listed under Notices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redelivering (%1 of %2 queued again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redelivery job %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exporting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1 deliveries to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The delivery&apos;s attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Atte&amp;mpts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Atte&amp;mpts (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 — unknown (interrupted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  claimed by instance %1 at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  the instance stopped before the answer; it may or may not have arrived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  the instance ended during the delivery; it may or may not have arrived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  taken over at %1 by %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  sent again under the same delivery id (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  not sent again: [webhook] RESEND_INTERRUPTED is off; redeliver it if the receiver tolerates a duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  claimed by instance %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  ended at %1 after %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 webhook %2 (%3); its Authorization header was removed with the old URL</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TablePage</name>
    <message>
        <source>Filter (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Switchyard cannot start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switchyard console: the embedded engine, or a remote instance with --connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read settings from &lt;path&gt; (app.ini).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep data under &lt;dir&gt; (default: [server] APP_DATA_PATH, else the user&apos;s data directory).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the instance whose admin API is at &lt;url&gt; (instead of the embedded engine).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --connect: read the token from &lt;file&gt; (else $SWITCHYARD_TOKEN, else ask).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --connect: open the embedded engine as well.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the Connect dialog at start (the desktop entry&apos;s Connect action).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer (switchyardd)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
