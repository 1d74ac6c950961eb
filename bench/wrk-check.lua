-- wrk's script for bench/wrk.mjs: counts the answers that are a 200 with exactly the expected
-- body (DROPS_BENCH_EXPECTED_BODY) and any other, and prints one line for wrk.mjs to read.
-- The counters are globals so that `done`, which runs in wrk's main state, can read each thread's.
right = 0
wrong = 0
local expected = os.getenv("DROPS_BENCH_EXPECTED_BODY")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function response(status, headers, body)
  if status == 200 and body == expected then right = right + 1 else wrong = wrong + 1 end
end

function done(summary, latency, requests)
  local r, w = 0, 0
  for _, t in ipairs(threads) do
    r = r + t:get("right")
    w = w + t:get("wrong")
  end
  local e = summary.errors
  io.write(string.format("drops-bench right=%d wrong=%d seconds=%f errors=%d timeouts=%d\n",
    r, w, summary.duration / 1e6, e.connect + e.read + e.write, e.timeout))
end
