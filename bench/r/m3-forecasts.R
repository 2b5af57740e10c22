# R `forecast` reference forecasts on the M3 series: thetaf, ses, holt and damped holt, one row per
# series, method and step. Usage: Rscript bench/r/m3-forecasts.R m3_long.csv out.csv [ids-file]
suppressMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
m3 <- read.csv(args[1], stringsAsFactors = FALSE)
ids <- unique(m3$id)
if (length(args) > 2) ids <- intersect(ids, readLines(args[3]))
out <- file(args[2], "w")
writeLines("id,method,step,value", out)
started <- Sys.time()
for (id in ids) {
  s <- m3[m3$id == id, ]
  train <- ts(s$value[s$split == "train"], frequency = s$freq[1])
  h <- sum(s$split == "test")
  fits <- list(
    theta = thetaf(train, h = h)$mean,
    ses = ses(train, h = h)$mean,
    holt = holt(train, h = h)$mean,
    damped = holt(train, h = h, damped = TRUE)$mean)
  for (method in names(fits)) {
    writeLines(sprintf("%s,%s,%d,%.10g", id, method, seq_len(h), as.numeric(fits[[method]])), out)
  }
}
close(out)
message(sprintf("%d series in %.1f s", length(ids), as.numeric(Sys.time() - started, units = "secs")))
