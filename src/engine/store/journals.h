#pragma once

// The store as the persistence of the engine's own state: each maker returns an implementation of
// an interface that its subsystem defines (the subsystem knows nothing of the store).
//   notices    — NoticeBoard's journal, table notice
//   cron       — pauses and tick claims (cron_pause, cron_tick) and run history (cron_run)
//   queues     — processed/failed counts over time (queue_history)

#include "engine/core/notices.h"
#include "engine/cron/cron.h"
#include "engine/queue/queuehistory.h"

#include <memory>

namespace Switchyard {

class Store;

std::unique_ptr<NoticeJournal> makeStoredNotices(Store &store);

// Pauses and tick claims in the store: one instance on SQLite, or several sharing PostgreSQL
// without Redis (the tick's primary key lets one instance run it). `importFile` (cron-state.json
// of a version that kept pauses in a file), when it exists, is imported once and renamed to
// <file>.imported.
Result<std::unique_ptr<CronCoordinator>> makeStoredCronCoordinator(Store &store, const QString &instanceId,
                                                                  const QString &importFile,
                                                                  const CronProblemReporter &report = {});

// Run history in cron_run: the newest `keepPerTask` rows of each task are kept (older ones are
// deleted as new ones arrive).
std::unique_ptr<CronRunJournal> makeStoredCronRuns(Store &store, int keepPerTask = 1000);

std::unique_ptr<QueueHistoryJournal> makeStoredQueueHistory(Store &store);

} // namespace Switchyard
