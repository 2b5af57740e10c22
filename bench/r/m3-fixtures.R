# Test fixtures from R's M3 forecasts (bench/r/m3-forecasts.R's output): every 50th series' point
# forecasts of theta, ses, holt, damped and both Holt-Winters, and each method's sMAPE (M3 form)
# and MASE over the series it forecast (Holt-Winters: those with two full seasons).
# Usage: Rscript bench/r/m3-fixtures.R m3_long.csv m3-r.csv src/test/resources/forecast
args <- commandArgs(trailingOnly = TRUE)
m3 <- read.csv(args[1], stringsAsFactors = FALSE)
r <- read.csv(args[2], stringsAsFactors = FALSE)
r <- r[!is.na(r$value), ]
ids <- unique(m3$id)
sample <- ids[seq(1, length(ids), by = 50)]
pointwise <- c("theta", "ses", "holt", "damped", "holtwinters", "holtwinters_mult")
write.csv(r[r$id %in% sample & r$method %in% pointwise, ], file.path(args[3], "m3-r-sample.csv"),
          row.names = FALSE, quote = FALSE)
acc <- do.call(rbind, lapply(split(r, list(r$id, r$method), drop = TRUE), function(f) {
  s <- m3[m3$id == f$id[1], ]
  train <- s$value[s$split == "train"]
  test <- s$value[s$split == "test"]
  m <- s$freq[1]
  lag <- if (length(train) > m) m else 1
  scale <- mean(abs(diff(train, lag = lag)))
  data.frame(method = f$method[1],
             smape = mean(200 * abs(test - f$value) / (abs(test) + abs(f$value))),
             mase = mean(abs(test - f$value)) / scale)
}))
out <- aggregate(cbind(smape, mase) ~ method, data = acc, FUN = mean)
write.csv(out, file.path(args[3], "m3-r-accuracy.csv"), row.names = FALSE, quote = FALSE)
print(out)
