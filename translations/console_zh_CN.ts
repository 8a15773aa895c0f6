<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Card</name>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1后</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <source>not scheduled</source>
        <translation>未排期</translation>
    </message>
    <message>
        <source>Every %1</source>
        <translation>每 %1</translation>
    </message>
    <message>
        <source>At minute 0 of every hour</source>
        <translation>每小时第 0 分钟</translation>
    </message>
    <message>
        <source>At 00:00 every day</source>
        <translation>每天 00:00</translation>
    </message>
    <message>
        <source>At 00:00 every Sunday</source>
        <translation>每周日 00:00</translation>
    </message>
    <message>
        <source>At 00:00 on day 1 of every month</source>
        <translation>每月 1 日 00:00</translation>
    </message>
    <message>
        <source>At 00:00 on 1 January</source>
        <translation>每年 1 月 1 日 00:00</translation>
    </message>
    <message>
        <source>every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <source>Monday to Friday</source>
        <translation>周一至周五</translation>
    </message>
    <message>
        <source>on day %1 of every month</source>
        <translation>每月 %1 日</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>每%1</translation>
    </message>
    <message>
        <source>At %1:%2 %3</source>
        <translation>%3 %1:%2</translation>
    </message>
    <message>
        <source>At minute %1 of every hour</source>
        <translation>每小时第 %1 分钟</translation>
    </message>
    <message>
        <source>Every %1 minutes</source>
        <translation>每 %1 分钟</translation>
    </message>
    <message>
        <source>Every minute</source>
        <translation>每分钟</translation>
    </message>
    <message>
        <source>Every %1 seconds</source>
        <translation>每 %1 秒</translation>
    </message>
    <message>
        <source>Every second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <source>Every %1 hours, at minute %2</source>
        <translation>每 %1 小时，第 %2 分钟</translation>
    </message>
</context>
<context>
    <name>HookDialog</name>
    <message>
        <source>Webhook</source>
        <translation>网络钩子</translation>
    </message>
    <message>
        <source>&amp;Installed on:</source>
        <translation>安装位置(&amp;I)：</translation>
    </message>
    <message>
        <source>Installed on</source>
        <translation>安装位置</translation>
    </message>
    <message>
        <source>Repository or owner &amp;id:</source>
        <translation>仓库或所有者 ID(&amp;I)：</translation>
    </message>
    <message>
        <source>Repository or owner id</source>
        <translation>仓库或所有者 ID</translation>
    </message>
    <message>
        <source>Target &amp;URL:</source>
        <translation>目标 URL(&amp;U)：</translation>
    </message>
    <message>
        <source>Target URL</source>
        <translation>目标 URL</translation>
    </message>
    <message>
        <source>https://ci.example.com/hooks/gitea</source>
        <translation>https://ci.example.com/hooks/gitea</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>for people: what this hook is for</source>
        <translation>供人阅读：此钩子的用途</translation>
    </message>
    <message>
        <source>&amp;Type:</source>
        <translation>类型(&amp;T)：</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>HTTP &amp;method:</source>
        <translation>HTTP 方法(&amp;M)：</translation>
    </message>
    <message>
        <source>HTTP method</source>
        <translation>HTTP 方法</translation>
    </message>
    <message>
        <source>&amp;Content type:</source>
        <translation>内容类型(&amp;C)：</translation>
    </message>
    <message>
        <source>Content type</source>
        <translation>内容类型</translation>
    </message>
    <message>
        <source>&amp;Secret:</source>
        <translation>密钥(&amp;S)：</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>signs each delivery (X-Hub-Signature-256)</source>
        <translation>为每次投递签名（X-Hub-Signature-256）</translation>
    </message>
    <message>
        <source>&amp;Authorization header:</source>
        <translation>Authorization 标头(&amp;A)：</translation>
    </message>
    <message>
        <source>Authorization header</source>
        <translation>Authorization 标头</translation>
    </message>
    <message>
        <source>e.g. Bearer …; sealed at rest</source>
        <translation>例如 Bearer …；加密存储</translation>
    </message>
    <message>
        <source>&amp;Branch filter:</source>
        <translation>分支过滤(&amp;B)：</translation>
    </message>
    <message>
        <source>Branch filter</source>
        <translation>分支过滤</translation>
    </message>
    <message>
        <source>glob: main, release-*, {main,dev}; empty: every branch</source>
        <translation>通配符：main, release-*, {main,dev}；留空：所有分支</translation>
    </message>
    <message>
        <source>&amp;Active: deliver events (off: deliveries are recorded as skipped)</source>
        <translation>启用(&amp;A)：投递事件（关闭时投递记为已跳过）</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>&amp;Push only</source>
        <translation>仅推送(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Everything (26 events)</source>
        <translation>全部(&amp;E)（26 个事件）</translation>
    </message>
    <message>
        <source>C&amp;hoose events:</source>
        <translation>选择事件(&amp;H)：</translation>
    </message>
    <message>
        <source>Events to deliver</source>
        <translation>要投递的事件</translation>
    </message>
    <message>
        <source>What is wrong</source>
        <translation>问题所在</translation>
    </message>
    <message>
        <source>Channel settings</source>
        <translation>频道设置</translation>
    </message>
    <message>
        <source>C&amp;hannel:</source>
        <translation>频道(&amp;H)：</translation>
    </message>
    <message>
        <source>#ops (required)</source>
        <translation>#ops（必填）</translation>
    </message>
    <message>
        <source>Post &amp;as:</source>
        <translation>发送者名称(&amp;A)：</translation>
    </message>
    <message>
        <source>the name shown on messages</source>
        <translation>消息上显示的名称</translation>
    </message>
    <message>
        <source>&amp;Icon URL:</source>
        <translation>图标 URL(&amp;I)：</translation>
    </message>
    <message>
        <source>https://… (optional)</source>
        <translation>https://…（可选）</translation>
    </message>
    <message>
        <source>Co&amp;lour:</source>
        <translation>颜色(&amp;L)：</translation>
    </message>
    <message>
        <source>good, warning, danger or #rrggbb (pushes)</source>
        <translation>good、warning、danger 或 #rrggbb（推送）</translation>
    </message>
    <message>
        <source>A&amp;vatar URL:</source>
        <translation>头像 URL(&amp;V)：</translation>
    </message>
    <message>
        <source>C&amp;hat id:</source>
        <translation>聊天 ID(&amp;H)：</translation>
    </message>
    <message>
        <source>-100… (or in the URL)</source>
        <translation>-100…（或写在 URL 中）</translation>
    </message>
    <message>
        <source>Th&amp;read id:</source>
        <translation>话题 ID(&amp;R)：</translation>
    </message>
    <message>
        <source>a topic of the chat (optional)</source>
        <translation>聊天中的某个话题（可选）</translation>
    </message>
    <message>
        <source>Message t&amp;ype:</source>
        <translation>消息类型(&amp;Y)：</translation>
    </message>
    <message>
        <source>m.notice (default) or m.text</source>
        <translation>m.notice（默认）或 m.text</translation>
    </message>
    <message>
        <source>Pac&amp;kage URL:</source>
        <translation>软件包 URL(&amp;K)：</translation>
    </message>
    <message>
        <source>https://github.com/acme/lib (required)</source>
        <translation>https://github.com/acme/lib（必填）</translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>Self-check</source>
        <translation>自检</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Run self-check</source>
        <translation>运行自检</translation>
    </message>
    <message>
        <source>Recent notices</source>
        <translation>最近的系统提示</translation>
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
        <translation>概览</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Cron</source>
        <translation>定时任务</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Cache &amp; QoS</source>
        <translation>缓存与 QoS</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>网络钩子</translation>
    </message>
    <message>
        <source>Notices</source>
        <translation>系统提示</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>no token is stored for this instance</source>
        <translation>此实例没有保存令牌</translation>
    </message>
    <message>
        <source>no keychain service is running (%1)</source>
        <translation>没有正在运行的钥匙串服务（%1）</translation>
    </message>
    <message>
        <source>the keychain refused: %1</source>
        <translation>钥匙串拒绝了请求：%1</translation>
    </message>
    <message>
        <source>

(the first %1 of %2 bytes)</source>
        <translation>

（%2 字节中的前 %1 字节）</translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::FlushJob</name>
    <message>
        <source>Flush queue %1</source>
        <translation>立即处理队列 %1</translation>
    </message>
    <message>
        <source>the connection is closing</source>
        <translation>连接正在关闭</translation>
    </message>
    <message>
        <source>flush cancelled</source>
        <translation>立即处理已取消</translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::LocalBackend</name>
    <message>
        <source>This computer (embedded engine)</source>
        <translation>本机（内嵌引擎）</translation>
    </message>
    <message>
        <source>starting the embedded engine</source>
        <translation>正在启动内嵌引擎</translation>
    </message>
    <message>
        <source>the engine did not start: %1</source>
        <translation>引擎未能启动：%1</translation>
    </message>
    <message>
        <source>the embedded engine is shutting down</source>
        <translation>内嵌引擎正在停止</translation>
    </message>
    <message>
        <source>the embedded engine is still starting</source>
        <translation>内嵌引擎仍在启动中</translation>
    </message>
</context>
<context>
    <name>Switchyard::Admin::RemoteBackend</name>
    <message>
        <source>the stream stopped answering</source>
        <translation>事件流已停止响应</translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <source>%1 is unreachable: %2</source>
        <translation>%1 无法访问：%2</translation>
    </message>
    <message>
        <source>%1 answered with a redirect to %2; it is not followed, since the token would go along (connect to the address you trust instead)</source>
        <translation>%1 返回了到 %2 的重定向；为免令牌随之发出，不会跟随（请改为连接您信任的地址）</translation>
    </message>
    <message>
        <source>the instance no longer accepts this token</source>
        <translation>该实例不再接受此令牌</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the view went away</source>
        <translation>视图已关闭</translation>
    </message>
    <message>
        <source>connecting to %1</source>
        <translation>正在连接到 %1</translation>
    </message>
    <message>
        <source>reconnecting to %1 (attempt %2)</source>
        <translation>正在重新连接到 %1（第 %2 次尝试）</translation>
    </message>
    <message>
        <source>%1 has no admin API v%2 (is this a Switchyard instance?)</source>
        <translation>%1 没有 v%2 版管理 API（这是 Switchyard 实例吗？）</translation>
    </message>
    <message>
        <source>incompatible version: the instance (Switchyard %1) speaks admin API v%2; this console speaks v%3</source>
        <translation>版本不兼容：该实例（Switchyard %1）使用管理 API v%2；本控制台使用 v%3</translation>
    </message>
    <message>
        <source>unauthorised: %1 refused the token</source>
        <translation>未授权：%1 拒绝了该令牌</translation>
    </message>
    <message>
        <source>read-only token: changes are disabled</source>
        <translation>只读令牌：更改已禁用</translation>
    </message>
    <message>
        <source>unreachable: %1 — retrying in %2 s</source>
        <translation>无法访问：%1 — %2 秒后重试</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::AboutDialog</name>
    <message>
        <source>About Switchyard</source>
        <translation>关于 Switchyard</translation>
    </message>
    <message>
        <source>An administration console for the background machinery of a Gitea forge: queues, cron, locks, notifications, webhooks and mail.</source>
        <translation>Gitea 代码平台后台机制的管理控制台：队列、定时任务、锁、通知、网络钩子和邮件。</translation>
    </message>
    <message>
        <source>What the console ships, and under which licence</source>
        <translation>控制台附带的组件及其许可证</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>&amp;Copy build info</source>
        <translation>复制构建信息(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the version, build and instance to the clipboard</source>
        <translation>将版本、构建和实例信息复制到剪贴板</translation>
    </message>
    <message>
        <source>No instance is open.</source>
        <translation>没有打开的实例。</translation>
    </message>
    <message>
        <source>Instance: %1 (%2)</source>
        <translation>实例：%1（%2）</translation>
    </message>
    <message>
        <source>Data directory: reading…</source>
        <translation>数据目录：正在读取…</translation>
    </message>
    <message>
        <source>Data directory: unknown (%1)</source>
        <translation>数据目录：未知（%1）</translation>
    </message>
    <message>
        <source>Data directory: %1</source>
        <translation>数据目录：%1</translation>
    </message>
    <message>
        <source>Switchyard %1</source>
        <translation>Switchyard %1</translation>
    </message>
    <message>
        <source>no build type</source>
        <translation>无构建类型</translation>
    </message>
    <message>
        <source>Built with Qt %1, running on Qt %2; %3, %4; built %5</source>
        <translation>基于 Qt %1 构建，运行于 Qt %2；%3，%4；构建于 %5</translation>
    </message>
    <message>
        <source>no licence chosen yet: see the package&apos;s copyright file (/usr/share/doc/switchyard/copyright)</source>
        <translation>尚未选定许可证：参见软件包的版权文件（/usr/share/doc/switchyard/copyright）</translation>
    </message>
    <message>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未声明</translation>
    </message>
    <message>
        <source>Qt 6</source>
        <translation>Qt 6</translation>
    </message>
    <message>
        <source>Core, Network, SQL, Widgets, SVG, WebSockets</source>
        <translation>Core、Network、SQL、Widgets、SVG、WebSockets</translation>
    </message>
    <message>
        <source>Qt Charts</source>
        <translation>Qt Charts</translation>
    </message>
    <message>
        <source>the pages&apos; charts</source>
        <translation>各页面的图表</translation>
    </message>
    <message>
        <source>SQLite</source>
        <translation>SQLite</translation>
    </message>
    <message>
        <source>public domain</source>
        <translation>公有领域</translation>
    </message>
    <message>
        <source>through Qt&apos;s SQLite driver</source>
        <translation>通过 Qt 的 SQLite 驱动</translation>
    </message>
    <message>
        <source>hiredis</source>
        <translation>hiredis</translation>
    </message>
    <message>
        <source>Redis queues, locks, cache and pub/sub</source>
        <translation>Redis 队列、锁、缓存和发布/订阅</translation>
    </message>
    <message>
        <source>LevelDB</source>
        <translation>LevelDB</translation>
    </message>
    <message>
        <source>level queues (with Snappy, BSD-3-Clause)</source>
        <translation>level 队列（含 Snappy，BSD-3-Clause）</translation>
    </message>
    <message>
        <source>QtKeychain</source>
        <translation>QtKeychain</translation>
    </message>
    <message>
        <source>the tokens of saved instances</source>
        <translation>已保存实例的令牌</translation>
    </message>
    <message>
        <source>http_parser</source>
        <translation>http_parser</translation>
    </message>
    <message>
        <source>the system&apos;s libhttp-parser</source>
        <translation>系统的 libhttp-parser</translation>
    </message>
    <message>
        <source>OpenSSL</source>
        <translation>OpenSSL</translation>
    </message>
    <message>
        <source>signatures and sealed secrets</source>
        <translation>签名与密封的密钥</translation>
    </message>
    <message>
        <source>libcurl</source>
        <translation>libcurl</translation>
    </message>
    <message>
        <source>curl (MIT-style)</source>
        <translation>curl（类 MIT）</translation>
    </message>
    <message>
        <source>mail over SMTP</source>
        <translation>通过 SMTP 发送邮件</translation>
    </message>
    <message>
        <source>cmark-gfm</source>
        <translation>cmark-gfm</translation>
    </message>
    <message>
        <source>Markdown in mail</source>
        <translation>邮件中的 Markdown</translation>
    </message>
    <message>
        <source>Mustache (kainjow)</source>
        <translation>Mustache（kainjow）</translation>
    </message>
    <message>
        <source>mail templates</source>
        <translation>邮件模板</translation>
    </message>
    <message>
        <source>Adwaita icons</source>
        <translation>Adwaita 图标</translation>
    </message>
    <message>
        <source>the GNOME Project; resources/icons/README.md</source>
        <translation>GNOME 项目；resources/icons/README.md</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::AuditModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::AuditPage</name>
    <message>
        <source>&lt;h3&gt;Nothing changed yet&lt;/h3&gt;&lt;p&gt;Every change made through the admin API or this console — a flush, a Run now, a forced lock release — is recorded here with who made it, from where and how it ended. Reading is never recorded.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;尚无更改&lt;/h3&gt;&lt;p&gt;通过管理 API 或本控制台做出的每项更改——立即处理队列、立即运行定时任务、强制释放锁——都会连同操作者、来源和结果记录在这里。读取操作从不记录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Reading the audit log</source>
        <translation>读取审计日志</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CachePage</name>
    <message>
        <source>Cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>Run self-check</source>
        <translation>运行自检</translation>
    </message>
    <message>
        <source>Delete, put and get a 500-byte test value; slow above 30 ms</source>
        <translation>删除、写入并读取一个 500 字节的测试值；超过 30 毫秒即为慢</translation>
    </message>
    <message>
        <source>Not run yet. The check is slow above 30 ms.</source>
        <translation>尚未运行。超过 30 毫秒即视为慢。</translation>
    </message>
    <message>
        <source>Cache latency (ms)</source>
        <translation>缓存延迟（毫秒）</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>QoS admission control</source>
        <translation>QoS 准入控制</translation>
    </message>
    <message>
        <source>QoS requests</source>
        <translation>QoS 请求</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Cache information unavailable: %1</source>
        <translation>无法获取缓存信息：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Adapter&lt;/b&gt; %1%2 · &lt;b&gt;item TTL&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;适配器&lt;/b&gt; %1%2 · &lt;b&gt;条目 TTL&lt;/b&gt; %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Hits&lt;/b&gt; %1 · &lt;b&gt;misses&lt;/b&gt; %2 · &lt;b&gt;hit ratio&lt;/b&gt; %3 %&lt;br&gt;&lt;b&gt;Latency&lt;/b&gt; p50 %4 ms · p99 %5 ms · &lt;b&gt;evictions&lt;/b&gt; %6 · &lt;b&gt;errors&lt;/b&gt; %7</source>
        <translation>&lt;b&gt;命中&lt;/b&gt; %1 · &lt;b&gt;未命中&lt;/b&gt; %2 · &lt;b&gt;命中率&lt;/b&gt; %3 %&lt;br&gt;&lt;b&gt;延迟&lt;/b&gt; p50 %4 毫秒 · p99 %5 毫秒 · &lt;b&gt;淘汰&lt;/b&gt; %6 · &lt;b&gt;错误&lt;/b&gt; %7</translation>
    </message>
    <message>
        <source> · &lt;b&gt;items&lt;/b&gt; %1</source>
        <translation> · &lt;b&gt;条目&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;2Q&lt;/b&gt; recent %1 · frequent %2 · ghost %3</source>
        <translation>&lt;br&gt;&lt;b&gt;2Q&lt;/b&gt; 近期 %1 · 高频 %2 · 幽灵 %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Enabled&lt;/b&gt;</source>
        <translation>&lt;b&gt;已启用&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Disabled&lt;/b&gt; (&lt;code&gt;[qos] ENABLED = false&lt;/code&gt;): requests are not queued</source>
        <translation>&lt;b&gt;已禁用&lt;/b&gt;（&lt;code&gt;[qos] ENABLED = false&lt;/code&gt;）：请求不排队</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;In flight&lt;/b&gt; %1 of %2 · &lt;b&gt;waiting&lt;/b&gt; %3 of %4 · &lt;b&gt;target wait&lt;/b&gt; %5 ms&lt;br&gt;&lt;b&gt;Admitted&lt;/b&gt; %6 · &lt;b&gt;dropped&lt;/b&gt; high %7 · default %8 · low %9</source>
        <translation>&lt;br&gt;&lt;b&gt;处理中&lt;/b&gt; %1 / %2 · &lt;b&gt;等待中&lt;/b&gt; %3 / %4 · &lt;b&gt;目标等待&lt;/b&gt; %5 毫秒&lt;br&gt;&lt;b&gt;已准入&lt;/b&gt; %6 · &lt;b&gt;已丢弃&lt;/b&gt; 高 %7 · 默认 %8 · 低 %9</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Cache self-check failed: %1</source>
        <translation>缓存自检失败：%1</translation>
    </message>
    <message>
        <source>Cache self-check slow: %1 ms (threshold %2 ms)</source>
        <translation>缓存自检偏慢：%1 毫秒（阈值 %2 毫秒）</translation>
    </message>
    <message>
        <source>Cache self-check passed in %1 ms</source>
        <translation>缓存自检通过，用时 %1 毫秒</translation>
    </message>
    <message>
        <source>The check could not run: %1</source>
        <translation>无法运行检查：%1</translation>
    </message>
    <message>
        <source>✗ Failed after %1 ms: %2</source>
        <translation>✗ %1 毫秒后失败：%2</translation>
    </message>
    <message>
        <source>⚠ Slow: %1 ms (threshold %2 ms)</source>
        <translation>⚠ 偏慢：%1 毫秒（阈值 %2 毫秒）</translation>
    </message>
    <message>
        <source>✓ OK in %1 ms (threshold %2 ms)</source>
        <translation>✓ 正常，用时 %1 毫秒（阈值 %2 毫秒）</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CommandPalette</name>
    <message>
        <source>Command palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <source>Search commands</source>
        <translation>搜索命令</translation>
    </message>
    <message>
        <source>Type a command or a page</source>
        <translation>输入命令或页面</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Go to %1</source>
        <translation>转到 %1</translation>
    </message>
    <message>
        <source>%1 (on)</source>
        <translation>%1（开启）</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1（关闭）</translation>
    </message>
    <message>
        <source>Not available now. %1</source>
        <translation>当前不可用。%1</translation>
    </message>
    <message>
        <source>Nothing matches “%1”.</source>
        <translation>没有与“%1”匹配的项。</translation>
    </message>
    <message>
        <source>↑ ↓ choose · Enter runs · Esc closes · greyed commands are not available now</source>
        <translation>↑ ↓ 选择 · Enter 运行 · Esc 关闭 · 灰色命令当前不可用</translation>
    </message>
    <message>
        <source>Nothing to run: no command matches.</source>
        <translation>无可运行的命令：没有匹配的命令。</translation>
    </message>
    <message>
        <source>“%1” is not available now.</source>
        <translation>“%1”当前不可用。</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ConnectDialog</name>
    <message>
        <source>Connect to an instance</source>
        <translation>连接到实例</translation>
    </message>
    <message>
        <source>Open a Switchyard daemon&apos;s admin API. Tokens are made with &lt;code&gt;switchyardctl token create NAME --role admin|read-only&lt;/code&gt; on its machine.</source>
        <translation>打开 Switchyard 守护进程的管理 API。令牌在其所在机器上用 &lt;code&gt;switchyardctl token create NAME --role admin|read-only&lt;/code&gt; 创建。</translation>
    </message>
    <message>
        <source>production</source>
        <translation>生产环境</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>令牌(&amp;T)：</translation>
    </message>
    <message>
        <source>only for a self-signed certificate</source>
        <translation>仅用于自签名证书</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt)</source>
        <translation>PEM 证书 (*.pem *.crt)</translation>
    </message>
    <message>
        <source>&amp;CA certificate:</source>
        <translation>CA 证书(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Remember this instance (the token goes to the system keychain)</source>
        <translation>记住此实例(&amp;R)（令牌存入系统钥匙串）</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Enter the instance&apos;s URL.</source>
        <translation>请输入实例的 URL。</translation>
    </message>
    <message>
        <source>The URL must be http:// or https:// with a host, e.g. https://forge.example.org:3300/api/v1.</source>
        <translation>URL 必须是带主机名的 http:// 或 https:// 地址，例如 https://forge.example.org:3300/api/v1。</translation>
    </message>
    <message>
        <source>Enter a token for this instance.</source>
        <translation>请输入此实例的令牌。</translation>
    </message>
    <message>
        <source>The CA certificate file does not exist.</source>
        <translation>CA 证书文件不存在。</translation>
    </message>
    <message>
        <source>Note: plain http to another machine sends the token in clear text.</source>
        <translation>注意：通过明文 http 连接其他机器时，令牌以明文发送。</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>注意：</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronModel</name>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <source>Previous run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行次数</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>最近消息</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1，由 %2 执行</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronPage</name>
    <message>
        <source>&lt;h3&gt;No cron tasks&lt;/h3&gt;&lt;p&gt;Built-in tasks register when the engine starts; your own run a &lt;code&gt;COMMAND&lt;/code&gt; or call a &lt;code&gt;URL&lt;/code&gt; from a &lt;code&gt;[cron.&amp;lt;name&amp;gt;]&lt;/code&gt; section of &lt;code&gt;app.ini&lt;/code&gt; — see docs/cron.md.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;没有定时任务&lt;/h3&gt;&lt;p&gt;内置任务在引擎启动时注册；自定义任务来自 &lt;code&gt;app.ini&lt;/code&gt; 的 &lt;code&gt;[cron.&amp;lt;name&amp;gt;]&lt;/code&gt; 小节，运行一个 &lt;code&gt;COMMAND&lt;/code&gt; 或调用一个 &lt;code&gt;URL&lt;/code&gt;——参见 docs/cron.md。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>立即运行</translation>
    </message>
    <message>
        <source>Start the task now, whatever its schedule</source>
        <translation>不论计划如何，立即启动该任务</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Skip scheduled runs until resumed (on every instance); Run now still works</source>
        <translation>在恢复之前跳过计划运行（所有实例）；“立即运行”仍然可用</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Reading the cron tasks</source>
        <translation>读取定时任务</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Select a task to see its runs.</source>
        <translation>选择一个任务以查看其运行记录。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source>Reading the runs of %1</source>
        <translation>读取 %1 的运行记录</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has not run since the engine started.</source>
        <translation>自引擎启动以来，&lt;b&gt;%1&lt;/b&gt; 尚未运行。</translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation>已启动 %1</translation>
    </message>
    <message>
        <source>%1 is already running; its result will show here when it finishes</source>
        <translation>%1 已在运行；完成后结果将显示在这里</translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Paused %1: scheduled runs are skipped until you resume</source>
        <translation>已暂停 %1：恢复之前将跳过计划运行</translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation>已恢复 %1</translation>
    </message>
    <message>
        <source>Pausing %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Resuming %1</source>
        <translation>恢复 %1</translation>
    </message>
    <message>
        <source>Cron tasks</source>
        <translation>定时任务</translation>
    </message>
    <message>
        <source>The selected task&apos;s runs, newest first</source>
        <translation>所选任务的运行记录，最新的在前</translation>
    </message>
    <message>
        <source>Show trace</source>
        <translation>显示追踪</translation>
    </message>
    <message>
        <source>What the selected run produced, with the instance that ran it</source>
        <translation>所选运行产生的内容，以及运行它的实例</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::CronRunModel</name>
    <message>
        <source>skipped: another instance holds the task&apos;s lock</source>
        <translation>已跳过：另一个实例持有该任务的锁</translation>
    </message>
    <message>
        <source>skipped: another instance ran this tick</source>
        <translation>已跳过：另一个实例已运行本次触发</translation>
    </message>
    <message>
        <source>skipped: the task is paused</source>
        <translation>已跳过：任务已暂停</translation>
    </message>
    <message>
        <source>skipped: Redis could not be reached</source>
        <translation>已跳过：无法连接 Redis</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation>触发方式</translation>
    </message>
    <message>
        <source>Doer</source>
        <translation>执行者</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DeliveryDetail</name>
    <message>
        <source>The selected delivery</source>
        <translation>所选投递</translation>
    </message>
    <message>
        <source>Request sent</source>
        <translation>已发送的请求</translation>
    </message>
    <message>
        <source>Response received</source>
        <translation>收到的响应</translation>
    </message>
    <message>
        <source>The delivery&apos;s attempts</source>
        <translation>该投递的各次尝试</translation>
    </message>
    <message>
        <source>&amp;Request</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <source>Re&amp;sponse</source>
        <translation>响应(&amp;S)</translation>
    </message>
    <message>
        <source>Atte&amp;mpts</source>
        <translation>尝试(&amp;M)</translation>
    </message>
    <message>
        <source>Atte&amp;mpts (%1)</source>
        <translation>尝试（%1）(&amp;M)</translation>
    </message>
    <message>
        <source>Not sent yet (%1).</source>
        <translation>尚未发送（%1）。</translation>
    </message>
    <message>
        <source>HTTP %1 after %2 ms</source>
        <translation>HTTP %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>No answer: %1</source>
        <translation>无响应：%1</translation>
    </message>
    <message>
        <source>No answer yet (%1).</source>
        <translation>尚无响应（%1）。</translation>
    </message>
    <message>
        <source>Attempt %1 — unknown (interrupted)</source>
        <translation>第 %1 次尝试 — 未知（已中断）</translation>
    </message>
    <message>
        <source>  claimed by instance %1 at %2</source>
        <translation>  由实例 %1 于 %2 领取</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>  the instance stopped before the answer; it may or may not have arrived</source>
        <translation>  实例在收到响应前停止；对方可能已收到，也可能未收到</translation>
    </message>
    <message>
        <source>  the instance ended during the delivery; it may or may not have arrived</source>
        <translation>  实例在投递期间终止；对方可能已收到，也可能未收到</translation>
    </message>
    <message>
        <source>  taken over at %1 by %2</source>
        <translation>  于 %1 由 %2 接管</translation>
    </message>
    <message>
        <source>  sent again under the same delivery id (%1)</source>
        <translation>  已以相同的投递 ID 重新发送（%1）</translation>
    </message>
    <message>
        <source>  not sent again: [webhook] RESEND_INTERRUPTED is off; redeliver it if the receiver tolerates a duplicate</source>
        <translation>  未重新发送：[webhook] RESEND_INTERRUPTED 已关闭；如果接收方能容忍重复，请重新投递</translation>
    </message>
    <message>
        <source>Attempt %1 — %2</source>
        <translation>第 %1 次尝试 — %2</translation>
    </message>
    <message>
        <source>  claimed by instance %1</source>
        <translation>  由实例 %1 领取</translation>
    </message>
    <message>
        <source>  ended at %1 after %2 ms</source>
        <translation>  于 %1 结束，用时 %2 毫秒</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DeliveryExportJob</name>
    <message>
        <source>Exporting deliveries to %1</source>
        <translation>正在将投递导出到 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>export cancelled after %1 deliveries; nothing was written</source>
        <translation>导出在 %1 条投递后取消；未写入任何内容</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DeliveryFilter</name>
    <message>
        <source>Deliveries of</source>
        <translation>投递范围</translation>
    </message>
    <message>
        <source>&amp;Of:</source>
        <translation>范围(&amp;O)：</translation>
    </message>
    <message>
        <source>Selected webhook</source>
        <translation>所选网络钩子</translation>
    </message>
    <message>
        <source>All webhooks</source>
        <translation>所有网络钩子</translation>
    </message>
    <message>
        <source>Delivery status</source>
        <translation>投递状态</translation>
    </message>
    <message>
        <source>S&amp;tatus:</source>
        <translation>状态(&amp;T)：</translation>
    </message>
    <message>
        <source>Any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Delivery event</source>
        <translation>投递事件</translation>
    </message>
    <message>
        <source>E&amp;vent:</source>
        <translation>事件(&amp;V)：</translation>
    </message>
    <message>
        <source>Queued within</source>
        <translation>入队时间范围</translation>
    </message>
    <message>
        <source>&amp;Within:</source>
        <translation>时间(&amp;W)：</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>任意时间</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Text in payload or response</source>
        <translation>负载或响应中的文本</translation>
    </message>
    <message>
        <source>Search deliveries</source>
        <translation>搜索投递</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DesktopAlerts</name>
    <message>
        <source>A webhook delivery failed</source>
        <translation>网络钩子投递失败</translation>
    </message>
    <message>
        <source>A webhook was made inactive after repeated failures</source>
        <translation>网络钩子因多次失败而被停用</translation>
    </message>
    <message>
        <source>A queue backed up past the threshold</source>
        <translation>队列积压超过阈值</translation>
    </message>
    <message>
        <source>A cron task failed</source>
        <translation>定时任务失败</translation>
    </message>
    <message>
        <source>An instance became unreachable</source>
        <translation>实例无法访问</translation>
    </message>
    <message>
        <source>Webhook delivery failed</source>
        <translation>网络钩子投递失败</translation>
    </message>
    <message>
        <source>Hook %1: %2 delivery %3 failed</source>
        <translation>钩子 %1：%2 投递 %3 失败</translation>
    </message>
    <message>
        <source>Webhook made inactive</source>
        <translation>网络钩子已停用</translation>
    </message>
    <message>
        <source>Cron task failed</source>
        <translation>定时任务失败</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Queue backing up</source>
        <translation>队列积压</translation>
    </message>
    <message>
        <source>%1 holds %2 items (threshold %3)</source>
        <translation>%1 中有 %2 项（阈值 %3）</translation>
    </message>
    <message>
        <source>Instance unreachable</source>
        <translation>实例无法访问</translation>
    </message>
    <message>
        <source>%1 cannot be reached</source>
        <translation>无法访问 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n more like this; the latest: %1</source>
        <translation>
            <numerusform>另有 %n 条类似提醒；最新一条：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::DesktopShell</name>
    <message>
        <source>Could not listen on port %1</source>
        <translation>无法在端口 %1 上监听</translation>
    </message>
    <message>
        <source>this console runs no engine of its own</source>
        <translation>此控制台没有运行自己的引擎</translation>
    </message>
    <message>
        <source>Kept settings</source>
        <translation>保存的设置</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EmbeddedInstance</name>
    <message>
        <source>no webhook secret was made for the default event source: %1</source>
        <translation>未能为默认事件源生成网络钩子密钥：%1</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EmbeddedServer</name>
    <message>
        <source>the engine&apos;s audit log could not be opened, so the admin API does not start</source>
        <translation>无法打开引擎的审计日志，因此管理 API 未启动</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EventModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>接收时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Sender</source>
        <translation>发送者</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Source %1, delivery %2, trace %3</source>
        <translation>来源 %1，投递 %2，追踪 %3</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EventSender</name>
    <message>
        <source>Push (one commit to main)</source>
        <translation>推送（向 main 提交一次）</translation>
    </message>
    <message>
        <source>Issue opened</source>
        <translation>工单已创建</translation>
    </message>
    <message>
        <source>Pull request opened</source>
        <translation>合并请求已创建</translation>
    </message>
    <message>
        <source>the instance answered %1: %2</source>
        <translation>实例返回 %1：%2</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::EventTryout</name>
    <message>
        <source>Send test event</source>
        <translation>发送测试事件</translation>
    </message>
    <message>
        <source>Post a sample forge event (a push) to this instance, signed as a forge would; the menu has an issue and a pull request too</source>
        <translation>向本实例发送一个示例代码平台事件（推送），并像代码平台那样签名；菜单中还有工单和合并请求</translation>
    </message>
    <message>
        <source>Sample events</source>
        <translation>示例事件</translation>
    </message>
    <message>
        <source>Send event from file…</source>
        <translation>从文件发送事件…</translation>
    </message>
    <message>
        <source>Post a saved webhook payload (JSON) to this instance</source>
        <translation>向本实例发送已保存的网络钩子负载（JSON）</translation>
    </message>
    <message>
        <source>Send event from file</source>
        <translation>从文件发送事件</translation>
    </message>
    <message>
        <source>Webhook payloads (*.json);;All files (*)</source>
        <translation>网络钩子负载 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>a test %1 event</source>
        <translation>测试 %1 事件</translation>
    </message>
    <message>
        <source>Cannot read %1</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>%1 is not a webhook payload</source>
        <translation>%1 不是网络钩子负载</translation>
    </message>
    <message>
        <source>not JSON: %1 at byte %2</source>
        <translation>不是 JSON：%1（位于第 %2 字节）</translation>
    </message>
    <message>
        <source>a payload is a JSON object</source>
        <translation>负载应为 JSON 对象</translation>
    </message>
    <message>
        <source>Which event is it?</source>
        <translation>这是哪种事件？</translation>
    </message>
    <message>
        <source>The payload does not say which event it is (create and delete look alike). Send it as:</source>
        <translation>该负载未表明它是哪种事件（create 和 delete 看起来一样）。发送为：</translation>
    </message>
    <message>
        <source>%1 as a %2 event</source>
        <translation>%1（作为 %2 事件）</translation>
    </message>
    <message>
        <source>Could not send %1</source>
        <translation>无法发送 %1</translation>
    </message>
    <message>
        <source>Sent %1, signed, over HTTP: event %2 accepted</source>
        <translation>已通过 HTTP 签名发送 %1：事件 %2 已被接受</translation>
    </message>
    <message>
        <source>Sent %1 through the admin API: event %2 accepted</source>
        <translation>已通过管理 API 发送 %1：事件 %2 已被接受</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ForgeUserModel</name>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>%1 (bot)</source>
        <translation>%1（机器人）</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HistoryChart</name>
    <message>
        <source>in the last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>in the last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>in the last 90 days</source>
        <translation>最近 90 天</translation>
    </message>
    <message>
        <source>Queue shown in the history chart</source>
        <translation>历史图表中显示的队列</translation>
    </message>
    <message>
        <source>All queues</source>
        <translation>所有队列</translation>
    </message>
    <message>
        <source>Period of the history chart</source>
        <translation>历史图表的时间范围</translation>
    </message>
    <message>
        <source>Last hour, per minute</source>
        <translation>最近一小时，按分钟</translation>
    </message>
    <message>
        <source>Last 7 days, per hour</source>
        <translation>最近 7 天，按小时</translation>
    </message>
    <message>
        <source>Last 90 days, per day</source>
        <translation>最近 90 天，按天</translation>
    </message>
    <message>
        <source>&amp;Queue:</source>
        <translation>队列(&amp;Q)：</translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>时间范围(&amp;P)：</translation>
    </message>
    <message>
        <source>Processed</source>
        <translation>已处理</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>items</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Processed and failed items over time</source>
        <translation>已处理和失败的项随时间的变化</translation>
    </message>
    <message>
        <source>%1 processed · %2 failed %3</source>
        <translation>%3：已处理 %1 · 失败 %2</translation>
    </message>
    <message>
        <source>History unavailable: %1</source>
        <translation>历史数据不可用：%1</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookDialog</name>
    <message>
        <source>a repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>an organisation</source>
        <translation>组织</translation>
    </message>
    <message>
        <source>a user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>the whole instance (system)</source>
        <translation>整个实例（系统）</translation>
    </message>
    <message>
        <source>each new repository (default)</source>
        <translation>每个新仓库（默认）</translation>
    </message>
    <message>
        <source>Not sent itself: each repository created from now on gets a copy as its own webhook</source>
        <translation>本身不发送：此后创建的每个仓库都会得到一份副本，作为它自己的网络钩子</translation>
    </message>
    <message>
        <source>JSON (application/json)</source>
        <translation>JSON（application/json）</translation>
    </message>
    <message>
        <source>form (payload=…)</source>
        <translation>表单（payload=…）</translation>
    </message>
    <message>
        <source>Edit webhook %1</source>
        <translation>编辑网络钩子 %1</translation>
    </message>
    <message>
        <source>set — leave empty to keep it</source>
        <translation>已设置——留空则保持不变</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Add webhook</source>
        <translation>添加网络钩子</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>%1 settings</source>
        <translation>%1 设置</translation>
    </message>
    <message>
        <source>removed with the new URL — enter it again to keep one</source>
        <translation>已随新 URL 移除——如需保留请重新输入</translation>
    </message>
    <message>
        <source>The stored Authorization header is not sent to a new URL: enter it again, or the hook is saved without one</source>
        <translation>已保存的 Authorization 标头不会发送到新 URL：请重新输入，否则钩子将不带该标头保存</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookModel</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Of</source>
        <translation>所属</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Last delivery</source>
        <translation>最近投递</translation>
    </message>
    <message>
        <source>everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>nothing chosen</source>
        <translation>未选择</translation>
    </message>
    <message>
        <source>push only</source>
        <translation>仅推送</translation>
    </message>
    <message>
        <source>%1 · branches %2</source>
        <translation>%1 · 分支 %2</translation>
    </message>
    <message>
        <source>repository %1</source>
        <translation>仓库 %1</translation>
    </message>
    <message>
        <source>owner %1</source>
        <translation>所有者 %1</translation>
    </message>
    <message>
        <source>every repository</source>
        <translation>所有仓库</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::HookTaskModel</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>入队时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Delivery id</source>
        <translation>投递 ID</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>a redelivery of delivery %1</source>
        <translation>对投递 %1 的重新投递</translation>
    </message>
    <message>
        <source>%1 (again)</source>
        <translation>%1（重新投递）</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Hook</source>
        <translation>钩子</translation>
    </message>
    <message>
        <source>scheduled retry %1 of delivery %2, due %3</source>
        <translation>投递 %2 的第 %1 次计划重试，时间 %3</translation>
    </message>
    <message>
        <source>scheduled retry %1 of delivery %2</source>
        <translation>投递 %2 的第 %1 次计划重试</translation>
    </message>
    <message>
        <source>%1 (retry %2)</source>
        <translation>%1（第 %2 次重试）</translation>
    </message>
    <message>
        <source>Interrupted: instance %1 stopped during the delivery (%2); it may or may not have arrived.</source>
        <translation>已中断：实例 %1 在投递期间停止（%2）；对方可能已收到，也可能未收到。</translation>
    </message>
    <message>
        <source>Interrupted: instance %1 ended during the delivery (%2); it may or may not have arrived.</source>
        <translation>已中断：实例 %1 在投递期间终止（%2）；对方可能已收到，也可能未收到。</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>Sent again under the same delivery id.</source>
        <translation>已以相同的投递 ID 重新发送。</translation>
    </message>
    <message>
        <source>Not sent again (RESEND_INTERRUPTED is off).</source>
        <translation>未重新发送（RESEND_INTERRUPTED 已关闭）。</translation>
    </message>
    <message>
        <source>%1 · resent</source>
        <translation>%1 · 已重发</translation>
    </message>
    <message>
        <source>%1 (interrupted)</source>
        <translation>%1（已中断）</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::InstanceView</name>
    <message>
        <source>Read-only connection: this token may look but not change anything, so the actions are disabled.</source>
        <translation>只读连接：此令牌只能查看、不能更改，因此操作已禁用。</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>connected, read-only</source>
        <translation>已连接，只读</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>shutting down…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>closing…</source>
        <translation>正在关闭…</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>○ not live</source>
        <translation>○ 非实时</translation>
    </message>
    <message>
        <source>○ waiting for updates</source>
        <translation>○ 等待更新</translation>
    </message>
    <message>
        <source>● live</source>
        <translation>● 实时</translation>
    </message>
    <message>
        <source>◌ stale since %1</source>
        <translation>◌ 自 %1 起未更新</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>已运行 %1</translation>
    </message>
    <message>
        <source>last seen %1</source>
        <translation>最后在线 %1</translation>
    </message>
    <message>
        <source>not seen yet</source>
        <translation>尚未在线</translation>
    </message>
    <message>
        <source> &amp;nbsp;·&amp;nbsp; %1 &amp;nbsp;·&amp;nbsp; v%2 &amp;nbsp;·&amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; queues %4 · cache %5 · locks %6</source>
        <translation> &amp;nbsp;·&amp;nbsp; %1 &amp;nbsp;·&amp;nbsp; v%2 &amp;nbsp;·&amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; 队列 %4 · 缓存 %5 · 锁 %6</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::IntakeBox</name>
    <message>
        <source>Receiving events</source>
        <translation>接收事件</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <source>The URL to give a Gitea or GitHub webhook</source>
        <translation>填写到 Gitea 或 GitHub 网络钩子中的 URL</translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation>复制 URL</translation>
    </message>
    <message>
        <source>Copy the webhook URL to the clipboard</source>
        <translation>将网络钩子 URL 复制到剪贴板</translation>
    </message>
    <message>
        <source>Secret:</source>
        <translation>密钥：</translation>
    </message>
    <message>
        <source>The webhook secret, hidden</source>
        <translation>网络钩子密钥（已隐藏）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show or hide the webhook secret</source>
        <translation>显示或隐藏网络钩子密钥</translation>
    </message>
    <message>
        <source>Copy secret</source>
        <translation>复制密钥</translation>
    </message>
    <message>
        <source>Copy the webhook secret to the clipboard</source>
        <translation>将网络钩子密钥复制到剪贴板</translation>
    </message>
    <message>
        <source>Listen on a free port instead</source>
        <translation>改为在空闲端口上监听</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>The webhook secret</source>
        <translation>网络钩子密钥</translation>
    </message>
    <message>
        <source>the secret</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>Forges cannot reach this engine: %1</source>
        <translation>代码平台无法访问此引擎：%1</translation>
    </message>
    <message>
        <source>Use port %1</source>
        <translation>使用端口 %1</translation>
    </message>
    <message>
        <source>Forges post their webhooks to this URL (content type &lt;code&gt;application/json&lt;/code&gt;), signed with the secret set as &lt;code&gt;[event_source.default] SECRET&lt;/code&gt; on the instance, or with an &lt;code&gt;ingest&lt;/code&gt; token.</source>
        <translation>代码平台将网络钩子发送到此 URL（内容类型 &lt;code&gt;application/json&lt;/code&gt;），并使用实例上以 &lt;code&gt;[event_source.default] SECRET&lt;/code&gt; 设置的密钥签名，或使用 &lt;code&gt;ingest&lt;/code&gt; 令牌。</translation>
    </message>
    <message>
        <source>Paste this URL and secret into a Gitea or GitHub webhook (&lt;i&gt;Settings ▸ Webhooks&lt;/i&gt;), content type &lt;code&gt;application/json&lt;/code&gt;.</source>
        <translation>将此 URL 和密钥填入 Gitea 或 GitHub 的网络钩子（&lt;i&gt;Settings ▸ Webhooks&lt;/i&gt;），内容类型选 &lt;code&gt;application/json&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>It listens on %1: only a forge on this computer reaches it (&lt;b&gt;Preferences&lt;/b&gt;, Ctrl+, to change).</source>
        <translation>它在 %1 上监听：只有本机上的代码平台能访问（可在 &lt;b&gt;首选项&lt;/b&gt; 中更改，Ctrl+,）。</translation>
    </message>
    <message>
        <source>No event has arrived yet: &lt;b&gt;Send test event&lt;/b&gt; tries it without a forge.</source>
        <translation>尚未收到任何事件：&lt;b&gt;发送测试事件&lt;/b&gt; 可在没有代码平台的情况下试一试。</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::LockModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Holder instance</source>
        <translation>持有者实例</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation>防护令牌</translation>
    </message>
    <message>
        <source>Acquired</source>
        <translation>获取时间</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Extensions</source>
        <translation>续期次数</translation>
    </message>
    <message>
        <source>Waiters</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>This instance holds the lock</source>
        <translation>本实例持有此锁</translation>
    </message>
    <message>
        <source>Held by another instance</source>
        <translation>由另一个实例持有</translation>
    </message>
    <message>
        <source>Strictly increasing with every acquisition: resources refuse writes carrying an older token.</source>
        <translation>每次获取都严格递增：资源会拒绝携带旧令牌的写入。</translation>
    </message>
    <message>
        <source>%1 (this instance)</source>
        <translation>%1（本实例）</translation>
    </message>
    <message>
        <source>no lease</source>
        <translation>无租约</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::LocksPage</name>
    <message>
        <source>&lt;h3&gt;No locks are held&lt;/h3&gt;&lt;p&gt;Cron runs, webhook deliveries and other exclusive work take a global lock while they run; they appear here with their holder, fencing token and lease. &lt;code&gt;[global_lock] SERVICE_TYPE&lt;/code&gt; chooses memory or Redis — see docs/locks.md.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;没有被持有的锁&lt;/h3&gt;&lt;p&gt;定时任务运行、网络钩子投递及其他独占性工作在运行期间会获取全局锁；它们会连同持有者、防护令牌和租约显示在这里。&lt;code&gt;[global_lock] SERVICE_TYPE&lt;/code&gt; 用于选择内存或 Redis——参见 docs/locks.md。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation>强制释放…</translation>
    </message>
    <message>
        <source>Remove the lock whoever holds it (asks first)</source>
        <translation>无论由谁持有，都移除该锁（会先确认）</translation>
    </message>
    <message>
        <source>A fencing token grows with every acquisition: a resource that remembers the highest token it saw refuses writes from a holder that lost its lock.</source>
        <translation>防护令牌随每次获取而增大：记住所见最大令牌的资源会拒绝已失去锁的持有者的写入。</translation>
    </message>
    <message>
        <source>Reading the locks</source>
        <translation>读取锁</translation>
    </message>
    <message>
        <source>Force release</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>Force-release %1, held by %2 (fencing token %3)?

The holder will be told it lost the lock; work it does after that is not protected, and another process may take the lock at once.</source>
        <translation>强制释放由 %2 持有的 %1（防护令牌 %3）？

持有者会被告知它已失去该锁；此后它所做的工作不再受保护，其他进程可能立即获取该锁。</translation>
    </message>
    <message>
        <source>Released %1 (was held by %2)</source>
        <translation>已释放 %1（原由 %2 持有）</translation>
    </message>
    <message>
        <source>%1 was already released; nothing to do</source>
        <translation>%1 已被释放，无需操作</translation>
    </message>
    <message>
        <source>Force-releasing %1</source>
        <translation>强制释放 %1</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::MainWindow</name>
    <message>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <source>Details…</source>
        <translation>详细信息…</translation>
    </message>
    <message>
        <source>Error details</source>
        <translation>错误详情</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>筛选</translation>
    </message>
    <message>
        <source>%1 (Ctrl+%2)</source>
        <translation>%1（Ctrl+%2）</translation>
    </message>
    <message>
        <source>Switchyard — %1</source>
        <translation>Switchyard — %1</translation>
    </message>
    <message>
        <source>○ not live</source>
        <translation>○ 非实时</translation>
    </message>
    <message>
        <source>console window closed</source>
        <translation>控制台窗口已关闭</translation>
    </message>
    <message>
        <source>Instances and pages</source>
        <translation>实例与页面</translation>
    </message>
    <message>
        <source>%1: not connected</source>
        <translation>%1：未连接</translation>
    </message>
    <message>
        <source>Connected to %1%2</source>
        <translation>已连接到 %1%2</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation>（只读）</translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)</source>
        <translation>正在连接到 %1（%2）</translation>
    </message>
    <message>
        <source>closed by the operator</source>
        <translation>已由操作员关闭</translation>
    </message>
    <message>
        <source>&amp;Connection</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Connect to an instance…</source>
        <translation>连接到实例(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Saved instances</source>
        <translation>已保存的实例(&amp;S)</translation>
    </message>
    <message>
        <source>C&amp;lose this connection</source>
        <translation>关闭此连接(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>Saved %1; its token is in the system keychain</source>
        <translation>已保存 %1；其令牌存于系统钥匙串</translation>
    </message>
    <message>
        <source>Saved %1, but %2: its token is kept for this session only and will be asked for next time</source>
        <translation>已保存 %1，但%2：其令牌仅在本次会话中保留，下次将再次询问</translation>
    </message>
    <message>
        <source>Forgot %1</source>
        <translation>已忘记 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Shutting down…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>Still running in the tray; Quit stops the engine</source>
        <translation>仍在系统托盘中运行；“退出”会停止引擎</translation>
    </message>
    <message>
        <source>&amp;Command palette…</source>
        <translation>命令面板(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Switchyard</source>
        <translation>关于 Switchyard(&amp;A)</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NoticeModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NoticesPage</name>
    <message>
        <source>&lt;h3&gt;No system notices&lt;/h3&gt;&lt;p&gt;The engine writes a notice when something needs an operator: a cron task that failed (or succeeded, with &lt;code&gt;NOTICE_ON_SUCCESS&lt;/code&gt;), a lock that was force-released, queue data that was damaged. They appear here as they happen.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;没有系统提示&lt;/h3&gt;&lt;p&gt;当有事需要操作员处理时，引擎会写入一条系统提示：定时任务失败（或在设置了 &lt;code&gt;NOTICE_ON_SUCCESS&lt;/code&gt; 时成功）、锁被强制释放、队列数据损坏。它们一发生就会显示在这里。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Select a notice to read all of it.</source>
        <translation>选择一条系统提示以阅读全文。</translation>
    </message>
    <message>
        <source>Reading the notices</source>
        <translation>读取系统提示</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1 条</translation>
    </message>
    <message>
        <source>Deleting notices</source>
        <translation>删除系统提示</translation>
    </message>
    <message>
        <source>Deleted 1 notice</source>
        <translation>已删除 1 条系统提示</translation>
    </message>
    <message>
        <source>Deleted %1 notices</source>
        <translation>已删除 %1 条系统提示</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NotificationModel</name>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::NotificationsPage</name>
    <message>
        <source>Ingested events, newest first</source>
        <translation>已接收的事件，最新的在前</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No events yet&lt;/h3&gt;&lt;p&gt;Events arrive when a forge posts its webhooks to this instance&apos;s admin API: give a Gitea or GitHub webhook the URL &lt;code&gt;http://HOST:3300/api/v1/events?source=NAME&lt;/code&gt;, with the secret you set as &lt;code&gt;[event_source.NAME] SECRET&lt;/code&gt; in app.ini (or an &lt;code&gt;ingest&lt;/code&gt; token: &lt;code&gt;switchyardctl token create forge --role ingest&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;To try it with a saved payload: &lt;code&gt;switchyardctl events send push.json --event push&lt;/code&gt;. Each event is stored, then turned into notifications for the users who watch, take part or are mentioned; they appear below with their unread counts.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;尚无事件&lt;/h3&gt;&lt;p&gt;当代码平台把网络钩子发送到本实例的管理 API 时，事件便会到达：为 Gitea 或 GitHub 的网络钩子填写 URL &lt;code&gt;http://HOST:3300/api/v1/events?source=NAME&lt;/code&gt;，并使用您在 app.ini 中以 &lt;code&gt;[event_source.NAME] SECRET&lt;/code&gt; 设置的密钥（或使用 &lt;code&gt;ingest&lt;/code&gt; 令牌：&lt;code&gt;switchyardctl token create forge --role ingest&lt;/code&gt;）。&lt;/p&gt;&lt;p&gt;用保存的负载试一试：&lt;code&gt;switchyardctl events send push.json --event push&lt;/code&gt;。每个事件都会先被保存，再转换为通知，发给关注、参与或被提及的用户；这些用户及其未读数显示在下方。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Keep the newest event in view as events arrive (off: the list stays where you scrolled)</source>
        <translation>事件到达时保持最新事件可见（关闭时列表停留在您滚动到的位置）</translation>
    </message>
    <message>
        <source>Show trace</source>
        <translation>显示追踪</translation>
    </message>
    <message>
        <source>Users of the forge, with their unread notifications</source>
        <translation>代码平台的用户及其未读通知</translation>
    </message>
    <message>
        <source>Notification actions</source>
        <translation>通知操作</translation>
    </message>
    <message>
        <source>Select a user to see their notifications.</source>
        <translation>选择一个用户以查看其通知。</translation>
    </message>
    <message>
        <source>Mark read</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <source>Mark unread</source>
        <translation>标为未读</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Mark all read</source>
        <translation>全部标为已读</translation>
    </message>
    <message>
        <source>Every unread notification of the selected user becomes read</source>
        <translation>将所选用户的所有未读通知标为已读</translation>
    </message>
    <message>
        <source>The selected user&apos;s notifications</source>
        <translation>所选用户的通知</translation>
    </message>
    <message>
        <source>Reading the events</source>
        <translation>读取事件</translation>
    </message>
    <message>
        <source>Reading the users</source>
        <translation>读取用户</translation>
    </message>
    <message>
        <source>Reading the notifications</source>
        <translation>读取通知</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n notification(s)</source>
        <translation>
            <numerusform>%1：%n 条通知</numerusform>
        </translation>
    </message>
    <message>
        <source>Marking a notification %1</source>
        <translation>将通知标记为 %1</translation>
    </message>
    <message>
        <source>Marked %1</source>
        <translation>已标记为 %1</translation>
    </message>
    <message>
        <source>Marking all notifications read</source>
        <translation>将所有通知标为已读</translation>
    </message>
    <message>
        <source>Marked all notifications read</source>
        <translation>已将所有通知标为已读</translation>
    </message>
    <message>
        <source>What the selected event produced: its notifications, feed rows, deliveries and mail</source>
        <translation>所选事件产生的内容：其通知、动态、投递和邮件</translation>
    </message>
    <message>
        <source>What the selected notification&apos;s cause produced: its event, the other notifications, deliveries and mail</source>
        <translation>所选通知的起因产生的内容：其事件、其他通知、投递和邮件</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::OverviewPage</name>
    <message>
        <source>Queues</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Cron</source>
        <translation>定时任务</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>Instance information unavailable: %1</source>
        <translation>无法获取实例信息：%1</translation>
    </message>
    <message>
        <source>No notices: nothing needs your attention.</source>
        <translation>没有系统提示：没有需要您处理的事项。</translation>
    </message>
    <message>
        <source>held, %1 by this instance</source>
        <translation>被持有，其中 %1 个由本实例持有</translation>
    </message>
    <message>
        <source>hit ratio · %1 · p99 %2 ms</source>
        <translation>命中率 · %1 · p99 %2 毫秒</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:large&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/span&gt; &amp;nbsp; Switchyard %2 · up %3&lt;br&gt;&lt;b&gt;Config&lt;/b&gt; %4 · &lt;b&gt;Data&lt;/b&gt; %5&lt;br&gt;&lt;b&gt;Queues&lt;/b&gt; %6 · &lt;b&gt;Cache&lt;/b&gt; %7 · &lt;b&gt;Locks&lt;/b&gt; %8 · &lt;b&gt;Database&lt;/b&gt; %9 · &lt;b&gt;Pub/sub&lt;/b&gt; %10</source>
        <translation>&lt;span style=&apos;font-size:large&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/span&gt; &amp;nbsp; Switchyard %2 · 已运行 %3&lt;br&gt;&lt;b&gt;配置&lt;/b&gt; %4 · &lt;b&gt;数据&lt;/b&gt; %5&lt;br&gt;&lt;b&gt;队列&lt;/b&gt; %6 · &lt;b&gt;缓存&lt;/b&gt; %7 · &lt;b&gt;锁&lt;/b&gt; %8 · &lt;b&gt;数据库&lt;/b&gt; %9 · &lt;b&gt;发布/订阅&lt;/b&gt; %10</translation>
    </message>
    <message>
        <source>embedded defaults</source>
        <translation>内置默认值</translation>
    </message>
    <message>
        <source>waiting in %1 queues · %2 items/s · %3 with failures · %4 paused</source>
        <translation>在 %1 个队列中等待 · %2 项/秒 · %3 个有失败 · %4 个已暂停</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message numerus="yes">
        <source>%n failing</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tasks · %2 running&lt;br&gt;next: %3 %4</source>
        <translation>%1 个任务 · %2 个运行中&lt;br&gt;下一个：%3 %4</translation>
    </message>
    <message>
        <source>self-check</source>
        <translation>自检</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>已复制 %1</translation>
    </message>
    <message>
        <source>Processed and failed</source>
        <translation>已处理与失败</translation>
    </message>
    <message>
        <source>%1 (schema %2)</source>
        <translation>%1（架构版本 %2）</translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
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
        <translation>未知</translation>
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
        <translation>关闭</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
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
        <translation>无</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
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
        <translation>%1失败：%2</translation>
    </message>
    <message>
        <source>%1 failed (%2).

%3</source>
        <translation>%1失败（%2）。

%3</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>Preference sections</source>
        <translation>首选项分区</translation>
    </message>
    <message>
        <source>&amp;Server</source>
        <translation>服务器(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Event sources</source>
        <translation>事件源(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Mail</source>
        <translation>邮件(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>外观(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Desktop</source>
        <translation>桌面(&amp;D)</translation>
    </message>
    <message>
        <source>Where the embedded engine&apos;s admin API listens: forges post their webhooks there, switchyardctl and other consoles connect there.</source>
        <translation>内嵌引擎的管理 API 在此监听：代码平台向这里发送网络钩子，switchyardctl 和其他控制台也连接到这里。</translation>
    </message>
    <message>
        <source>Listen address</source>
        <translation>监听地址</translation>
    </message>
    <message>
        <source>127.0.0.1: this computer only. 0.0.0.0: every network (needs TLS, or ALLOW_INSECURE_REMOTE in app.ini).</source>
        <translation>127.0.0.1：仅限本机。0.0.0.0：所有网络（需要 TLS，或在 app.ini 中设置 ALLOW_INSECURE_REMOTE）。</translation>
    </message>
    <message>
        <source>Listen &amp;address:</source>
        <translation>监听地址(&amp;A)：</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>Settings file: %1</source>
        <translation>设置文件：%1</translation>
    </message>
    <message>
        <source>This console runs no engine of its own (it was opened with --connect): these settings are the embedded engine&apos;s.</source>
        <translation>此控制台没有运行自己的引擎（它是用 --connect 打开的）：这些是内嵌引擎的设置。</translation>
    </message>
    <message>
        <source>A forge posts to …/events?source=NAME and signs with that source&apos;s secret. Secrets are kept in %1, not in app.ini.</source>
        <translation>代码平台向 …/events?source=NAME 发送，并用该事件源的密钥签名。密钥保存在 %1 中，而非 app.ini。</translation>
    </message>
    <message>
        <source>the system keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>Event sources</source>
        <translation>事件源</translation>
    </message>
    <message>
        <source>&amp;Add source…</source>
        <translation>添加事件源(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;New secret</source>
        <translation>生成新密钥(&amp;N)</translation>
    </message>
    <message>
        <source>Make a new random secret for the selected source (paste it into the forge after saving)</source>
        <translation>为所选事件源生成新的随机密钥（保存后将其粘贴到代码平台中）</translation>
    </message>
    <message>
        <source>Set &amp;secret…</source>
        <translation>设置密钥(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>Set secret</source>
        <translation>设置密钥</translation>
    </message>
    <message>
        <source>Secret of %1 (as the forge has it):</source>
        <translation>%1 的密钥（与代码平台中的一致）：</translation>
    </message>
    <message>
        <source>Send mail</source>
        <translation>发送邮件</translation>
    </message>
    <message>
        <source>(from the port)</source>
        <translation>（由端口决定）</translation>
    </message>
    <message>
        <source>Mail protocol</source>
        <translation>邮件协议</translation>
    </message>
    <message>
        <source>P&amp;rotocol:</source>
        <translation>协议(&amp;R)：</translation>
    </message>
    <message>
        <source>Mail server</source>
        <translation>邮件服务器</translation>
    </message>
    <message>
        <source>smtp.example.com, or a socket&apos;s path</source>
        <translation>smtp.example.com，或套接字路径</translation>
    </message>
    <message>
        <source>Ser&amp;ver:</source>
        <translation>服务器(&amp;V)：</translation>
    </message>
    <message>
        <source>(from the protocol)</source>
        <translation>（由协议决定）</translation>
    </message>
    <message>
        <source>Mail server port</source>
        <translation>邮件服务器端口</translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <source>Sender</source>
        <translation>发件人</translation>
    </message>
    <message>
        <source>Forge &lt;forge@example.com&gt;</source>
        <translation>Forge &lt;forge@example.com&gt;</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>发件人(&amp;F)：</translation>
    </message>
    <message>
        <source>Mail login</source>
        <translation>邮件登录名</translation>
    </message>
    <message>
        <source>&amp;Login:</source>
        <translation>登录名(&amp;L)：</translation>
    </message>
    <message>
        <source>Mail password</source>
        <translation>邮件密码</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>保持不变</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <source>Send &amp;test mail…</source>
        <translation>发送测试邮件(&amp;T)…</translation>
    </message>
    <message>
        <source>Send a test mail</source>
        <translation>发送一封测试邮件</translation>
    </message>
    <message>
        <source>The test mail goes with the settings the engine runs with; saved mail settings apply at the next start. The password is kept in %1, not in app.ini.</source>
        <translation>测试邮件按引擎当前运行的设置发送；保存的邮件设置在下次启动时生效。密码保存在 %1 中，而非 app.ini。</translation>
    </message>
    <message>
        <source>As the desktop</source>
        <translation>跟随桌面</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language applies at the next start.</source>
        <translation>新语言在下次启动时生效。</translation>
    </message>
    <message>
        <source>Show an icon in the system tray</source>
        <translation>在系统托盘中显示图标</translation>
    </message>
    <message>
        <source>Keep running in the tray when the window is closed</source>
        <translation>关闭窗口后在系统托盘中继续运行</translation>
    </message>
    <message>
        <source>The engine keeps taking events; Quit (Ctrl+Q, or the tray&apos;s menu) stops it</source>
        <translation>引擎会继续接收事件；“退出”（Ctrl+Q 或系统托盘菜单）才会停止它</translation>
    </message>
    <message>
        <source>Tell me on the desktop when:</source>
        <translation>出现以下情况时在桌面上提醒我：</translation>
    </message>
    <message>
        <source>Queue backlog threshold</source>
        <translation>队列积压阈值</translation>
    </message>
    <message>
        <source>&amp;Backlog threshold (items):</source>
        <translation>积压阈值（项）(&amp;B)：</translation>
    </message>
    <message>
        <source>At most one notice per kind a minute; what follows is summed up.</source>
        <translation>每类提醒每分钟最多一条；其后的会汇总显示。</translation>
    </message>
    <message>
        <source>none (a token is needed) — on save</source>
        <translation>无（需要令牌）— 保存时生效</translation>
    </message>
    <message>
        <source>new — kept on save</source>
        <translation>新密钥 — 保存时存储</translation>
    </message>
    <message>
        <source>kept in %1</source>
        <translation>保存在 %1 中</translation>
    </message>
    <message>
        <source>in app.ini</source>
        <translation>在 app.ini 中</translation>
    </message>
    <message>
        <source>none (a token is needed)</source>
        <translation>无（需要令牌）</translation>
    </message>
    <message>
        <source>Add event source</source>
        <translation>添加事件源</translation>
    </message>
    <message>
        <source>Name (letters, digits, &apos;_&apos;, &apos;.&apos;, &apos;-&apos;):</source>
        <translation>名称（字母、数字、&apos;_&apos;、&apos;.&apos;、&apos;-&apos;）：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid source name; use 1 to 64 letters, digits, &apos;_&apos;, &apos;.&apos; or &apos;-&apos;</source>
        <translation>“%1”不是有效的事件源名称；请使用 1 到 64 个字母、数字、&apos;_&apos;、&apos;.&apos; 或 &apos;-&apos;</translation>
    </message>
    <message>
        <source>Save, then give the forge the new secret of %1 (the Overview shows it after the next start).</source>
        <translation>请先保存，然后把 %1 的新密钥填入代码平台（下次启动后“概览”会显示它）。</translation>
    </message>
    <message>
        <source>The default source always exists; give it no secret to require a token instead</source>
        <translation>默认事件源始终存在；不为它设置密钥即可改为要求令牌</translation>
    </message>
    <message>
        <source>Send test mail</source>
        <translation>发送测试邮件</translation>
    </message>
    <message>
        <source>Send a test mail to:</source>
        <translation>发送测试邮件至：</translation>
    </message>
    <message>
        <source>Sending a test mail to %1…</source>
        <translation>正在向 %1 发送测试邮件…</translation>
    </message>
    <message>
        <source>the test mail to %1 failed: %2</source>
        <translation>发送至 %1 的测试邮件失败：%2</translation>
    </message>
    <message>
        <source>Sent a test mail to %1</source>
        <translation>已向 %1 发送测试邮件</translation>
    </message>
    <message>
        <source>the listen address</source>
        <translation>监听地址</translation>
    </message>
    <message>
        <source>event sources</source>
        <translation>事件源</translation>
    </message>
    <message>
        <source>mail</source>
        <translation>邮件</translation>
    </message>
    <message>
        <source>[server] HTTP_ADDR = %1 would take the admin API off this computer without TLS: tokens would cross the network in clear text. Set CERT_FILE and KEY_FILE in app.ini, or keep 127.0.0.1</source>
        <translation>[server] HTTP_ADDR = %1 会使管理 API 在没有 TLS 的情况下向本机以外开放：令牌将以明文在网络上传输。请在 app.ini 中设置 CERT_FILE 和 KEY_FILE，或保持 127.0.0.1</translation>
    </message>
    <message>
        <source>the language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>已保存到 %1。</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <source>Everything applies now.</source>
        <translation>所有设置已立即生效。</translation>
    </message>
    <message>
        <source>Restart Switchyard to apply: %1.</source>
        <translation>重启 Switchyard 后生效：%1。</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>&amp;Copy secret</source>
        <translation>复制密钥(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected source&apos;s secret (the new one before saving) to paste into the forge</source>
        <translation>复制所选事件源的密钥（保存前为新密钥），以粘贴到代码平台中</translation>
    </message>
    <message>
        <source>%1 has no secret the console keeps</source>
        <translation>控制台没有保存 %1 的密钥</translation>
    </message>
    <message>
        <source>Copied the secret of %1</source>
        <translation>已复制 %1 的密钥</translation>
    </message>
    <message>
        <source>port %1: %2</source>
        <translation>端口 %1：%2</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessJob</name>
    <message>
        <source>Following job %1: %2</source>
        <translation>监视作业 %1：%2</translation>
    </message>
    <message>
        <source>cancelled (at least %1 of %2 were done)</source>
        <translation>已取消（%2 项中至少已完成 %1 项）</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessModel</name>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Cancellable</source>
        <translation>可取消</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::ProcessesPage</name>
    <message>
        <source>&lt;h3&gt;Nothing registered&lt;/h3&gt;&lt;p&gt;Worker pools, the cron scheduler, runs and admin jobs register here while they run.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;没有已注册的进程&lt;/h3&gt;&lt;p&gt;工作者池、定时任务调度器、任务运行和管理作业在运行期间会在此注册。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cancel process</source>
        <translation>取消进程</translation>
    </message>
    <message>
        <source>Cancel the selected process and its children</source>
        <translation>取消所选进程及其子进程</translation>
    </message>
    <message>
        <source>Reading the processes</source>
        <translation>读取进程</translation>
    </message>
    <message>
        <source>Cancelled %1</source>
        <translation>已取消 %1</translation>
    </message>
    <message>
        <source>%1 had already ended</source>
        <translation>%1 已经结束</translation>
    </message>
    <message>
        <source>Cancelling %1</source>
        <translation>取消 %1</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueueItemsView</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Refresh the waiting items</source>
        <translation>刷新等待中的项</translation>
    </message>
    <message>
        <source>Refresh the items in flight</source>
        <translation>刷新处理中的项</translation>
    </message>
    <message>
        <source>Waiting items, from the head</source>
        <translation>等待中的项，从队首开始</translation>
    </message>
    <message>
        <source>Items in flight</source>
        <translation>处理中的项</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>The selected item, pretty-printed</source>
        <translation>所选项（格式化显示）</translation>
    </message>
    <message>
        <source>Select an item to see all of it.</source>
        <translation>选择一项以查看其全部内容。</translation>
    </message>
    <message>
        <source>&amp;Copy item</source>
        <translation>复制项(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected item to the clipboard</source>
        <translation>将所选项复制到剪贴板</translation>
    </message>
    <message>
        <source>No queue selected.</source>
        <translation>未选择队列。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>Could not read the items: %1</source>
        <translation>无法读取项：%1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1: nothing waits.</source>
        <translation>%1：没有等待中的项。</translation>
    </message>
    <message numerus="yes">
        <source>%1: the %n waiting item(s), from the head.</source>
        <translation>
            <numerusform>%1：全部 %n 个等待中的项，从队首开始。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the first %2 waiting items.</source>
        <translation>%1：前 %2 个等待中的项。</translation>
    </message>
    <message>
        <source>%1: no item is being handled.</source>
        <translation>%1：没有正在处理的项。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n item(s) taken and not yet acknowledged.</source>
        <translation>
            <numerusform>%1：%n 个项已取出但尚未确认。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueueModel</name>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Unique</source>
        <translation>唯一</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Workers handling a batch / running / maximum</source>
        <translation>处理批次中 / 运行中 / 最大工作者数</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作者</translation>
    </message>
    <message>
        <source>Pushed</source>
        <translation>已推入</translation>
    </message>
    <message>
        <source>Handled</source>
        <translation>已处理</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Items handled per second, last 10 minutes</source>
        <translation>最近 10 分钟内每秒处理的项数</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 of %2 items (LENGTH)</source>
        <translation>%1 / %2 项（LENGTH）</translation>
    </message>
    <message>
        <source>Paused: items are accepted and kept, no worker takes them until you resume.</source>
        <translation>已暂停：仍接受并保留新项，但在恢复之前没有工作者会取走它们。</translation>
    </message>
    <message>
        <source>%1 failed, %2 undecodable, %3 acknowledgements failed</source>
        <translation>%1 个失败，%2 个无法解码，%3 个确认失败</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>工作中</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::QueuesPage</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop handing items to workers; pushes are still accepted</source>
        <translation>停止向工作者分发项；仍接受推入</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Flush</source>
        <translation>立即处理</translation>
    </message>
    <message>
        <source>Handle every waiting item now, within the timeout</source>
        <translation>在超时时间内立即处理所有等待中的项</translation>
    </message>
    <message>
        <source>Remove all…</source>
        <translation>全部移除…</translation>
    </message>
    <message>
        <source>Delete every waiting item (asks first, naming how many)</source>
        <translation>删除所有等待中的项（会先确认并说明数量）</translation>
    </message>
    <message>
        <source>Set max workers…</source>
        <translation>设置最大工作者数…</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>timeout </source>
        <translation>超时 </translation>
    </message>
    <message>
        <source>How long a flush may take before it gives up (the items stay queued)</source>
        <translation>立即处理在放弃之前最多可持续的时长（各项仍留在队列中）</translation>
    </message>
    <message>
        <source>Flush timeout</source>
        <translation>立即处理超时</translation>
    </message>
    <message>
        <source>Flush progress</source>
        <translation>立即处理进度</translation>
    </message>
    <message>
        <source>Cancel flush</source>
        <translation>取消立即处理</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Handled per second</source>
        <translation>每秒处理数</translation>
    </message>
    <message>
        <source>items</source>
        <translation>项</translation>
    </message>
    <message>
        <source>items/s</source>
        <translation>项/秒</translation>
    </message>
    <message>
        <source>Reading the queues</source>
        <translation>读取队列</translation>
    </message>
    <message>
        <source>Read-only connection</source>
        <translation>只读连接</translation>
    </message>
    <message>
        <source>Select a queue to see its settings and its last 10 minutes.</source>
        <translation>选择一个队列以查看其设置和最近 10 分钟的情况。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, batch %3, length %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2，批大小 %3，长度 %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, batch %3, length %4&lt;br&gt;%5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2，批大小 %3，长度 %4&lt;br&gt;%5</translation>
    </message>
    <message>
        <source>%1 — last 10 minutes</source>
        <translation>%1 — 最近 10 分钟</translation>
    </message>
    <message>
        <source>Paused %1: items are kept until you resume</source>
        <translation>已暂停 %1：恢复之前各项将被保留</translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation>已恢复 %1</translation>
    </message>
    <message>
        <source>Pausing %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Resuming %1</source>
        <translation>恢复 %1</translation>
    </message>
    <message>
        <source>flushing %1: %p%</source>
        <translation>正在立即处理 %1：%p%</translation>
    </message>
    <message>
        <source>Flushed %1: %2 items in %3</source>
        <translation>已立即处理 %1：%3 内处理了 %2 项</translation>
    </message>
    <message>
        <source>Flush of %1 timed out after %2; the remaining items stay queued</source>
        <translation>%1 的立即处理在 %2 后超时；剩余的项仍留在队列中</translation>
    </message>
    <message>
        <source>Flush of %1 cancelled; the remaining items stay queued</source>
        <translation>%1 的立即处理已取消；剩余的项仍留在队列中</translation>
    </message>
    <message>
        <source>Flushing %1</source>
        <translation>立即处理 %1</translation>
    </message>
    <message>
        <source>Counting the items of %1</source>
        <translation>统计 %1 的项数</translation>
    </message>
    <message>
        <source>%1 is empty: nothing to remove</source>
        <translation>%1 为空：没有可移除的项</translation>
    </message>
    <message>
        <source>Remove all items</source>
        <translation>移除所有项</translation>
    </message>
    <message>
        <source>Remove %1 items from %2?

The items are deleted without being handled. This cannot be undone.</source>
        <translation>从 %2 中移除 %1 项？

这些项将不经处理直接删除。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Remove %1 items</source>
        <translation>移除 %1 项</translation>
    </message>
    <message>
        <source>Removed %1 items from %2</source>
        <translation>已从 %2 中移除 %1 项</translation>
    </message>
    <message>
        <source>Removing the items of %1</source>
        <translation>移除 %1 的项</translation>
    </message>
    <message>
        <source>Set max workers</source>
        <translation>设置最大工作者数</translation>
    </message>
    <message>
        <source>Maximum workers for %1:</source>
        <translation>%1 的最大工作者数：</translation>
    </message>
    <message>
        <source>%1 now runs at most %2 workers</source>
        <translation>%1 现在最多运行 %2 个工作者</translation>
    </message>
    <message>
        <source>Setting the workers of %1</source>
        <translation>设置 %1 的工作者数</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No queues yet&lt;/h3&gt;&lt;p&gt;Queues are created by the subsystems that use them (webhook delivery, notifications, mail) when the engine starts them.&lt;br&gt;Their type, length, batch size and workers come from &lt;code&gt;[queue]&lt;/code&gt; and &lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt; in &lt;code&gt;app.ini&lt;/code&gt; — &lt;b&gt;Queue settings…&lt;/b&gt; in the toolbar shows which apply here; docs/queues.md has every key.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;尚无队列&lt;/h3&gt;&lt;p&gt;队列由使用它们的子系统（网络钩子投递、通知、邮件）在引擎启动这些子系统时创建。&lt;br&gt;它们的类型、长度、批大小和工作者数来自 &lt;code&gt;app.ini&lt;/code&gt; 中的 &lt;code&gt;[queue]&lt;/code&gt; 和 &lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt;——工具栏中的 &lt;b&gt;队列设置…&lt;/b&gt; 会显示此处适用哪些设置；docs/queues.md 列出了所有键。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Queue settings…</source>
        <translation>队列设置…</translation>
    </message>
    <message>
        <source>Which [queue.*] settings of app.ini apply to which queue, and which queues the subsystems create</source>
        <translation>app.ini 中哪些 [queue.*] 设置适用于哪个队列，以及各子系统会创建哪些队列</translation>
    </message>
    <message>
        <source>Length and throughput chart</source>
        <translation>长度和吞吐量图表</translation>
    </message>
    <message>
        <source>Queue details</source>
        <translation>队列详情</translation>
    </message>
    <message>
        <source>C&amp;hart</source>
        <translation>图表(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Items</source>
        <translation>项(&amp;I)</translation>
    </message>
    <message>
        <source>In &amp;flight</source>
        <translation>处理中(&amp;F)</translation>
    </message>
    <message>
        <source>No queue selected.</source>
        <translation>未选择队列。</translation>
    </message>
    <message>
        <source>%1: no history yet — the chart starts with the next live updates (one a second).</source>
        <translation>%1：尚无历史数据——图表将从下一次实时更新开始（每秒一次）。</translation>
    </message>
    <message>
        <source>Reading the queue settings</source>
        <translation>读取队列设置</translation>
    </message>
    <message>
        <source>webhook delivery (unique)</source>
        <translation>网络钩子投递（唯一）</translation>
    </message>
    <message>
        <source>in-app notifications</source>
        <translation>应用内通知</translation>
    </message>
    <message>
        <source>mail notifications</source>
        <translation>邮件通知</translation>
    </message>
    <message>
        <source>admin jobs</source>
        <translation>管理作业</translation>
    </message>
    <message>
        <source>event ingestion</source>
        <translation>事件接收</translation>
    </message>
    <message>
        <source>the built-in defaults (no app.ini)</source>
        <translation>内置默认值（无 app.ini）</translation>
    </message>
    <message>
        <source>&lt;p&gt;Settings come from %1: &lt;code&gt;[queue]&lt;/code&gt; applies to every queue (TYPE here: &lt;b&gt;%2&lt;/b&gt;), &lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt; overrides it key by key for one queue.&lt;/p&gt;&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th align=&apos;left&apos;&gt;queue&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;created by&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;type&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;from&lt;/th&gt;&lt;/tr&gt;%3&lt;/table&gt;&lt;p&gt;A queue appears on this page once the subsystem that uses it starts. For example:&lt;/p&gt;&lt;pre&gt;[queue.webhook_sender]
TYPE = redis
LENGTH = 10000
MAX_WORKERS = 4&lt;/pre&gt;</source>
        <translation>&lt;p&gt;设置来自 %1：&lt;code&gt;[queue]&lt;/code&gt; 适用于所有队列（此处 TYPE 为 &lt;b&gt;%2&lt;/b&gt;），&lt;code&gt;[queue.&amp;lt;name&amp;gt;]&lt;/code&gt; 针对单个队列逐键覆盖它。&lt;/p&gt;&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th align=&apos;left&apos;&gt;队列&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;创建者&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;类型&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;来源&lt;/th&gt;&lt;/tr&gt;%3&lt;/table&gt;&lt;p&gt;使用某个队列的子系统启动后，该队列就会出现在此页面上。例如：&lt;/p&gt;&lt;pre&gt;[queue.webhook_sender]
TYPE = redis
LENGTH = 10000
MAX_WORKERS = 4&lt;/pre&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Other sections in the configuration: %1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;配置中的其他小节：%1。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Queue settings</source>
        <translation>队列设置</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::SecretVault</name>
    <message>
        <source>the system keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <source>%1 could not be read from the keychain: %2</source>
        <translation>无法从钥匙串读取 %1：%2</translation>
    </message>
    <message>
        <source>the keychain did not answer within %1 s</source>
        <translation>钥匙串未在 %1 秒内响应</translation>
    </message>
    <message>
        <source>%1 is listed in %2 without its value</source>
        <translation>%1 列在 %2 中，但没有值</translation>
    </message>
    <message>
        <source>the keychain did not keep %1: %2</source>
        <translation>钥匙串未能保存 %1：%2</translation>
    </message>
    <message>
        <source>no keychain service answered (%1); values are kept in %2</source>
        <translation>没有钥匙串服务响应（%1）；值保存在 %2 中</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::TraceDialog</name>
    <message>
        <source>Show as:</source>
        <translation>显示为：</translation>
    </message>
    <message>
        <source>&amp;Tree</source>
        <translation>树(&amp;T)</translation>
    </message>
    <message>
        <source>Show the trace as a tree, each item under its cause</source>
        <translation>以树形显示追踪，每一项位于其起因之下</translation>
    </message>
    <message>
        <source>Time&amp;line</source>
        <translation>时间线(&amp;L)</translation>
    </message>
    <message>
        <source>Show the trace as a timeline, with offsets from the root</source>
        <translation>以时间线显示追踪，并标出相对根项的偏移</translation>
    </message>
    <message>
        <source>What the trace holds</source>
        <translation>追踪包含的内容</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>At</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Enter or a double-click on an item goes to the page that lists it.</source>
        <translation>在某项上按 Enter 或双击，可转到列出它的页面。</translation>
    </message>
    <message>
        <source>Trace %1</source>
        <translation>追踪 %1</translation>
    </message>
    <message>
        <source>Reading trace %1…</source>
        <translation>正在读取追踪 %1…</translation>
    </message>
    <message>
        <source>Trace %1: %2</source>
        <translation>追踪 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Trace %1 began with %2 %3 (%4) at %5: %n item(s)</source>
        <translation><numerusform>追踪 %1 于 %5 始于%2 %3（%4）：共 %n 项</numerusform></translation>
    </message>
    <message>
        <source>The store does not say which instance made this row</source>
        <translation>存储中没有记录是哪个实例生成了此行</translation>
    </message>
    <message>
        <source>Handled by instance %1</source>
        <translation>由实例 %1 处理</translation>
    </message>
    <message>
        <source>Forge rows keep whole seconds: this offset is approximate</source>
        <translation>代码平台的记录只精确到秒：此偏移为近似值</translation>
    </message>
    <message>
        <source>Sends delivery %1 again</source>
        <translation>重新发送投递 %1</translation>
    </message>
    <message>
        <source>The console has no page that lists %1 rows: this trace is where they show.</source>
        <translation>控制台没有列出%1的页面：它们只显示在此追踪中。</translation>
    </message>
    <message numerus="yes">
        <source>Events (%n)</source>
        <translation><numerusform>事件（%n）</numerusform></translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message numerus="yes">
        <source>Cron runs (%n)</source>
        <translation><numerusform>定时任务运行（%n）</numerusform></translation>
    </message>
    <message>
        <source>Cron run</source>
        <translation>定时任务运行</translation>
    </message>
    <message numerus="yes">
        <source>Notifications (%n)</source>
        <translation><numerusform>通知（%n）</numerusform></translation>
    </message>
    <message>
        <source>Notification</source>
        <translation>通知</translation>
    </message>
    <message numerus="yes">
        <source>Feed rows (%n)</source>
        <translation><numerusform>动态（%n）</numerusform></translation>
    </message>
    <message>
        <source>Feed row</source>
        <translation>动态</translation>
    </message>
    <message numerus="yes">
        <source>Deliveries (%n)</source>
        <translation><numerusform>投递（%n）</numerusform></translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>投递</translation>
    </message>
    <message numerus="yes">
        <source>Mail (%n)</source>
        <translation><numerusform>邮件（%n）</numerusform></translation>
    </message>
    <message>
        <source>Mail</source>
        <translation>邮件</translation>
    </message>
    <message>
        <source>within 1 s</source>
        <translation>1 秒内</translation>
    </message>
    <message>
        <source>≈ %1%2</source>
        <translation>≈ %1%2</translation>
    </message>
    <message>
        <source>%1 %2 (%3) is not among the rows that page has read</source>
        <translation>%1 %2（%3）不在该页面已读取的行中</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::TrayIcon</name>
    <message>
        <source>Open Switchyard</source>
        <translation>打开 Switchyard</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <source>Switchyard: something failed (open to see)</source>
        <translation>Switchyard：有操作失败（打开以查看）</translation>
    </message>
    <message>
        <source>Switchyard: a queue is backing up or an instance reconnects</source>
        <translation>Switchyard：有队列积压或有实例正在重连</translation>
    </message>
    <message>
        <source>Switchyard: all well</source>
        <translation>Switchyard：一切正常</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>Switchyard::Console::WebhooksPage</name>
    <message>
        <source>Webhooks</source>
        <translation>网络钩子</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No webhooks yet&lt;/h3&gt;&lt;p&gt;A webhook sends the forge&apos;s events — pushes, issues, pull requests, releases … — to a URL, signed with its secret (&lt;code&gt;X-Hub-Signature-256&lt;/code&gt;), as Gitea does. Add one with &lt;b&gt;Add…&lt;/b&gt; above, or &lt;code&gt;switchyardctl hooks create --repo ID --url URL&lt;/code&gt;.&lt;/p&gt;&lt;p&gt;Events reach this instance at &lt;code&gt;/api/v1/events&lt;/code&gt;; each one a hook wants becomes a delivery, listed below with its request and response, and can be sent again.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;尚无网络钩子&lt;/h3&gt;&lt;p&gt;网络钩子会把代码平台的事件——推送、工单、合并请求、版本发布……——发送到一个 URL，并像 Gitea 那样用其密钥签名（&lt;code&gt;X-Hub-Signature-256&lt;/code&gt;）。可用上方的 &lt;b&gt;添加…&lt;/b&gt; 添加，或使用 &lt;code&gt;switchyardctl hooks create --repo ID --url URL&lt;/code&gt;。&lt;/p&gt;&lt;p&gt;事件通过 &lt;code&gt;/api/v1/events&lt;/code&gt; 到达本实例；钩子所需的每个事件都会成为一次投递，连同其请求和响应列在下方，并可再次发送。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add a webhook to a repository, an organisation, a user or the whole instance</source>
        <translation>为仓库、组织、用户或整个实例添加网络钩子</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Change the selected webhook&apos;s URL, events, secret or state</source>
        <translation>更改所选网络钩子的 URL、事件、密钥或状态</translation>
    </message>
    <message>
        <source>Test delivery</source>
        <translation>测试投递</translation>
    </message>
    <message>
        <source>Send a test push to the selected webhook, whatever its events and branch filter</source>
        <translation>向所选网络钩子发送一次测试推送，不论其事件和分支过滤设置</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected webhook and its delivery history</source>
        <translation>删除所选网络钩子及其投递历史</translation>
    </message>
    <message>
        <source>Delivery actions</source>
        <translation>投递操作</translation>
    </message>
    <message>
        <source>Select a webhook to see its deliveries.</source>
        <translation>选择一个网络钩子以查看其投递。</translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation>重新投递</translation>
    </message>
    <message>
        <source>Send the selected deliveries again (each gets a new delivery id; the history keeps both)</source>
        <translation>再次发送所选投递（每次都会获得新的投递 ID；历史中两者都保留）</translation>
    </message>
    <message>
        <source>The selected webhook&apos;s deliveries, newest first</source>
        <translation>所选网络钩子的投递，最新的在前</translation>
    </message>
    <message>
        <source>Reading the webhooks</source>
        <translation>读取网络钩子</translation>
    </message>
    <message>
        <source>Reading the deliveries</source>
        <translation>读取投递</translation>
    </message>
    <message>
        <source>%1 webhook %2 (%3)</source>
        <translation>%1网络钩子 %2（%3）</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>已添加</translation>
    </message>
    <message>
        <source>Delete webhook %1?</source>
        <translation>删除网络钩子 %1？</translation>
    </message>
    <message numerus="yes">
        <source>Deliveries to %1 stop, and its history of %n delivery(s) is deleted with it.</source>
        <translation>
            <numerusform>将停止向 %1 投递，其 %n 条投递历史也将一并删除。</numerusform>
        </translation>
    </message>
    <message>
        <source>Deleting webhook %1</source>
        <translation>删除网络钩子 %1</translation>
    </message>
    <message>
        <source>Deleted webhook %1 (%2)</source>
        <translation>已删除网络钩子 %1（%2）</translation>
    </message>
    <message>
        <source>Testing webhook %1</source>
        <translation>测试网络钩子 %1</translation>
    </message>
    <message>
        <source>Queued test delivery %1 to webhook %2</source>
        <translation>已为网络钩子 %2 排队测试投递 %1</translation>
    </message>
    <message>
        <source>Redelivering %1</source>
        <translation>重新投递 %1</translation>
    </message>
    <message numerus="yes">
        <source>Queued the delivery again</source>
        <translation>
            <numerusform>已将投递重新排队</numerusform>
        </translation>
    </message>
    <message>
        <source>Redeliver matching…</source>
        <translation>重新投递匹配项…</translation>
    </message>
    <message>
        <source>Send every delivery the filter matches again, as one job on the instance (status failed or unknown)</source>
        <translation>将筛选条件匹配的每个投递作为实例上的一个作业再次发送（状态为 failed 或 unknown）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write every delivery the filter matches to a CSV file</source>
        <translation>将筛选条件匹配的每个投递写入 CSV 文件</translation>
    </message>
    <message>
        <source>Export deliveries</source>
        <translation>导出投递</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Delivery job progress</source>
        <translation>投递作业进度</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the delivery job</source>
        <translation>取消投递作业</translation>
    </message>
    <message>
        <source>All webhooks</source>
        <translation>所有网络钩子</translation>
    </message>
    <message>
        <source>Reading the delivery figures…</source>
        <translation>正在读取投递统计…</translation>
    </message>
    <message>
        <source>Delivery latency (ms), last minute or two</source>
        <translation>投递延迟（毫秒），最近一两分钟</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Delivery figures unavailable: %1</source>
        <translation>投递统计不可用：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Since start&lt;/b&gt; %1 succeeded · %2 failed · %3 skipped · &lt;b&gt;in flight&lt;/b&gt; %4</source>
        <translation>&lt;b&gt;自启动以来&lt;/b&gt; 成功 %1 · 失败 %2 · 跳过 %3 · &lt;b&gt;处理中&lt;/b&gt; %4</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Last minute or two&lt;/b&gt; %1 sent · p50 %2 ms · p99 %3 ms</source>
        <translation>&lt;br&gt;&lt;b&gt;最近一两分钟&lt;/b&gt; 已发送 %1 · p50 %2 毫秒 · p99 %3 毫秒</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Last minute or two&lt;/b&gt; nothing sent</source>
        <translation>&lt;br&gt;&lt;b&gt;最近一两分钟&lt;/b&gt; 未发送任何投递</translation>
    </message>
    <message>
        <source>Hook %1</source>
        <translation>钩子 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n matching delivery(s)</source>
        <translation>
            <numerusform>%1：%n 条匹配的投递</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n delivery(s)</source>
        <translation>
            <numerusform>%1：%n 条投递</numerusform>
        </translation>
    </message>
    <message>
        <source>Send every delivery the filter matches again, as one job on the instance</source>
        <translation>将筛选条件匹配的每个投递作为实例上的一个作业再次发送</translation>
    </message>
    <message>
        <source>Choose status failed or unknown to redeliver what matches</source>
        <translation>选择状态“failed”或“unknown”以重新投递匹配项</translation>
    </message>
    <message>
        <source>Counting the deliveries to redeliver</source>
        <translation>统计要重新投递的投递</translation>
    </message>
    <message>
        <source>No delivery matches: nothing to redeliver</source>
        <translation>没有匹配的投递：无需重新投递</translation>
    </message>
    <message numerus="yes">
        <source>Redeliver %n delivery(s)?</source>
        <translation>
            <numerusform>重新投递 %n 条投递？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each of the %n %1 delivery(s) the filter matches is sent again under a new delivery id, oldest first; the history keeps the originals. Receivers may see an event twice.</source>
        <translation>
            <numerusform>筛选条件匹配的 %n 条状态为 %1 的投递将各自以新的投递 ID 重新发送，最早的在前；历史中保留原始记录。接收方可能会收到同一事件两次。</numerusform>
        </translation>
    </message>
    <message>
        <source>Redelivering the matching deliveries</source>
        <translation>重新投递匹配的投递</translation>
    </message>
    <message>
        <source>Redelivering %1 deliveries</source>
        <translation>正在重新投递 %1 条投递</translation>
    </message>
    <message>
        <source>redelivering</source>
        <translation>重新投递</translation>
    </message>
    <message>
        <source>The redelivery job for %1 deliveries ended; a stop on an error would be listed under Notices</source>
        <translation>%1 条投递的重新投递作业已结束；若因错误中止，会列在“系统提示”中</translation>
    </message>
    <message>
        <source>Redelivering (%1 of %2 queued again)</source>
        <translation>重新投递（已重新排队 %1 / %2）</translation>
    </message>
    <message>
        <source>Redelivery job %1</source>
        <translation>重新投递作业%1</translation>
    </message>
    <message>
        <source>exporting</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Exported %1 deliveries to %2</source>
        <translation>已将 %1 条投递导出到 %2</translation>
    </message>
    <message>
        <source>Exporting the deliveries</source>
        <translation>导出投递</translation>
    </message>
    <message>
        <source>%1 webhook %2 (%3); its Authorization header was removed with the old URL</source>
        <translation>%1网络钩子 %2（%3）；其 Authorization 标头已随旧 URL 一并移除</translation>
    </message>
    <message>
        <source>Show trace</source>
        <translation>显示追踪</translation>
    </message>
    <message>
        <source>What the selected delivery&apos;s cause produced: its event, notifications, other deliveries and mail</source>
        <translation>所选投递的起因产生的内容：其事件、通知、其他投递和邮件</translation>
    </message>
</context>
<context>
    <name>TablePage</name>
    <message>
        <source>Filter (Ctrl+F)</source>
        <translation>筛选（Ctrl+F）</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>筛选</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Switchyard cannot start</source>
        <translation>Switchyard 无法启动</translation>
    </message>
    <message>
        <source>Switchyard console: the embedded engine, or a remote instance with --connect.</source>
        <translation>Switchyard 控制台：内嵌引擎，或通过 --connect 连接的远程实例。</translation>
    </message>
    <message>
        <source>Read settings from &lt;path&gt; (app.ini).</source>
        <translation>从 &lt;path&gt;（app.ini）读取设置。</translation>
    </message>
    <message>
        <source>Keep data under &lt;dir&gt; (default: [server] APP_DATA_PATH, else the user&apos;s data directory).</source>
        <translation>将数据保存在 &lt;dir&gt; 下（默认：[server] APP_DATA_PATH，否则为用户的数据目录）。</translation>
    </message>
    <message>
        <source>Open the instance whose admin API is at &lt;url&gt; (instead of the embedded engine).</source>
        <translation>打开管理 API 位于 &lt;url&gt; 的实例（代替内嵌引擎）。</translation>
    </message>
    <message>
        <source>With --connect: read the token from &lt;file&gt; (else $SWITCHYARD_TOKEN, else ask).</source>
        <translation>配合 --connect：从 &lt;file&gt; 读取令牌（否则用 $SWITCHYARD_TOKEN，再否则询问）。</translation>
    </message>
    <message>
        <source>With --connect: open the embedded engine as well.</source>
        <translation>配合 --connect：同时打开内嵌引擎。</translation>
    </message>
    <message>
        <source>Open the Connect dialog at start (the desktop entry&apos;s Connect action).</source>
        <translation>启动时打开“连接”对话框（桌面项的“连接”操作）。</translation>
    </message>
    <message>
        <source>This computer (switchyardd)</source>
        <translation>本机（switchyardd）</translation>
    </message>
    <message>
        <source>This computer (another Switchyard window)</source>
        <translation>本机（另一个 Switchyard 窗口）</translation>
    </message>
</context>
</TS>
