-- wrk's script for bench/wrk.mjs: counts the answers that have the expected status
-- (DROPS_BENCH_EXPECTED_STATUS, default 200) and exactly the expected body
-- (DROPS_BENCH_EXPECTED_BODY), and any other, and prints one line for wrk.mjs to read.
-- With DROPS_BENCH_RANDOM_KEYS set (a seed), every request carries a new well-formed API key
-- nobody minted, as a guesser sends: `Bearer hp_` and 43 base64url characters, the last one of
-- the 16 whose low two bits are zero (the 43rd character encodes only 4 bits of the 32 bytes).
-- The counters are globals so that `done`, which runs in wrk's main state, can read each thread's.
right = 0
wrong = 0
local expected = os.getenv("DROPS_BENCH_EXPECTED_BODY")
local expectedStatus = tonumber(os.getenv("DROPS_BENCH_EXPECTED_STATUS") or "200")
local seed = os.getenv("DROPS_BENCH_RANDOM_KEYS")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

if seed ~= nil and seed ~= "" then
  local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  local last = "AEIMQUYcgkosw048"
  local chars = {}

  function init(args)
    math.randomseed(tonumber(seed))
  end

  function request()
    for i = 1, 42 do
      local n = math.random(64)
      chars[i] = alphabet:sub(n, n)
    end
    local n = math.random(16)
    chars[43] = last:sub(n, n)
    return wrk.format(nil, nil, { Authorization = "Bearer hp_" .. table.concat(chars) })
  end
end

function response(status, headers, body)
  if status == expectedStatus and body == expected then right = right + 1 else wrong = wrong + 1 end
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
