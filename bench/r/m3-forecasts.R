# R `forecast` reference forecasts on the M3 series, one row per series, method and step.
# Methods: theta (thetaf), ses, holt, damped (damped holt), ets, arima (auto.arima), holtwinters
# and holtwinters_mult (hw, additive and multiplicative).
# Usage: Rscript bench/r/m3-forecasts.R m3_long.csv out.csv [methods, default theta,ses,holt,damped]
# Resumable: series already complete in out.csv (every method, every step) are kept, not refitted.
suppressMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
m3 <- read.csv(args[1], stringsAsFactors = FALSE)
methods <- if (length(args) > 2) strsplit(args[3], ",")[[1]] else c("theta", "ses", "holt", "damped")
fitters <- list(
  theta = function(y, h) thetaf(y, h = h)$mean,
  ses = function(y, h) ses(y, h = h)$mean,
  holt = function(y, h) holt(y, h = h)$mean,
  damped = function(y, h) holt(y, h = h, damped = TRUE)$mean,
  ets = function(y, h) forecast(ets(y), h = h)$mean,
  arima = function(y, h) forecast(auto.arima(y), h = h)$mean,
  # Holt-Winters only where a season fits (R's hw needs two full seasons): NA elsewhere
  holtwinters = function(y, h) if (frequency(y) > 1 && length(y) >= 2 * frequency(y) + 2) hw(y, h = h)$mean else rep(NA, h),
  holtwinters_mult = function(y, h) if (frequency(y) > 1 && length(y) >= 2 * frequency(y) + 2) hw(y, h = h, seasonal = "multiplicative")$mean else rep(NA, h))
horizons <- tapply(m3$split == "test", m3$id, sum)
kept <- if (file.exists(args[2])) read.csv(args[2], stringsAsFactors = FALSE) else NULL
if (!is.null(kept)) {
  rows <- table(kept$id)
  complete <- names(rows)[rows == length(methods) * horizons[names(rows)]]
  kept <- kept[kept$id %in% complete, ]
}
out <- file(args[2], "w")
writeLines("id,method,step,value", out)
if (!is.null(kept) && nrow(kept) > 0) writeLines(sprintf("%s,%s,%d,%.10g", kept$id, kept$method, kept$step, kept$value), out)
started <- Sys.time()
for (id in setdiff(unique(m3$id), kept$id)) {
  s <- m3[m3$id == id, ]
  train <- ts(s$value[s$split == "train"], frequency = s$freq[1])
  h <- horizons[[id]]
  for (method in methods) {
    writeLines(sprintf("%s,%s,%d,%.10g", id, method, seq_len(h), as.numeric(fitters[[method]](train, h))), out)
  }
  flush(out)
}
close(out)
message(sprintf("%s on %d series in %.1f s", paste(methods, collapse = ", "), length(unique(m3$id)),
                as.numeric(Sys.time() - started, units = "secs")))
