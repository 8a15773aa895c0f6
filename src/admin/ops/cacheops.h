#pragma once

// The cache's and admission control's operations (docs/api.md "Cache", "QoS") and the JSON
// description of their values.

#include "admin/catalogue.h"

namespace Switchyard {

template<typename V>
void describe(V &v, TwoQueueOccupancy &q)
{
    v("recent", q.recent);
    v("frequent", q.frequent);
    v("ghost", q.ghost);
    v("capacity", q.capacity, Admin::Json::Optional);
}

template<typename V>
void describe(V &v, CacheStats &s)
{
    using namespace Admin::Json;
    v("adapter", s.adapter, Optional);
    v("hits", s.hits);
    v("misses", s.misses);
    v("evictions", s.evictions);
    v("errors", s.errors, Optional);
    v.group("latency_ms", [&](auto &g) {
        g("p50", s.latencyP50Ms);
        g("p99", s.latencyP99Ms);
    });
    v("items", s.items, Omit);
    v("twoqueue", s.twoQueue, Omit);
}

template<typename V>
void describe(V &v, QosStats &q)
{
    v("enabled", q.enabled);
    v("max_inflight", q.maxInflight);
    v("max_waiting", q.maxWaiting);
    v("target_wait_ms", q.targetWaitMs);
    v("inflight", q.inflight);
    v("waiting", q.waiting);
    v("admitted_total", q.admittedTotal);
    v.group("dropped_total", [&](auto &g) {
        g("high", q.droppedTotal[std::size_t(Priority::High)]);
        g("default", q.droppedTotal[std::size_t(Priority::Default)]);
        g("low", q.droppedTotal[std::size_t(Priority::Low)]);
    });
}

} // namespace Switchyard

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, CacheInfo &c)
{
    v("adapter", c.adapter);
    v("host", c.host);
    v("ttl_ms", c.ttlMs);
    v("items", c.items, Json::Omit);
}

template<typename V>
void describe(V &v, CacheTest &t)
{
    v("ok", t.ok);
    v("elapsed_ms", t.elapsedMs);
    v("slow", t.slow);
    v("threshold_ms", t.thresholdMs);
    v("error", t.error, Json::Omit);
}

namespace Ops {

extern const Op<NoArgs, CacheInfo> cacheInfo;
extern const Op<NoArgs, CacheStats> cacheStats;
extern const Op<NoArgs, CacheTest> cacheCheck;
extern const Op<NoArgs, QosStats> qos;

std::vector<const OpBase *> cacheOps();

// The admission controller's figures, or its settings when it is off.
QosStats qosOf(Engine &engine);

} // namespace Ops

} // namespace Switchyard::Admin
