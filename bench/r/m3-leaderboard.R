# R forecast's time for a whole leaderboard of eight methods (thetaf, ets, auto.arima, ses, holt,
# damped holt, naive, seasonal naive) on every Nth M3 series, to set beside Sonde's in one run.
# Usage: Rscript bench/r/m3-leaderboard.R m3_long.csv stride
suppressMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
m3 <- read.csv(args[1], stringsAsFactors = FALSE)
ids <- unique(m3$id)
ids <- ids[seq(1, length(ids), by = as.integer(args[2]))]
started <- Sys.time()
for (id in ids) {
  s <- m3[m3$id == id, ]
  train <- ts(s$value[s$split == "train"], frequency = s$freq[1])
  h <- sum(s$split == "test")
  thetaf(train, h = h); forecast(ets(train), h = h); forecast(auto.arima(train), h = h)
  ses(train, h = h); holt(train, h = h); holt(train, h = h, damped = TRUE)
  naive(train, h = h); snaive(train, h = h)
}
seconds <- as.numeric(Sys.time() - started, units = "secs")
cat(sprintf("R forecast: %d M3 series (every %s), 8 methods, %.1f s: %.2f series/s\n",
            length(ids), args[2], seconds, length(ids) / seconds))
