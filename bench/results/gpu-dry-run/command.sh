cd /work/wt/gpu
echo "start $(date -u +%FT%TZ) load: $(cat /proc/loadavg)"
env TMPDIR=$TMP DPGAUSS_SUITE_FAKE_DEVICE=1 DPGAUSS_SUITE_SCALE=full DPGAUSS_HEAP=8g \
  DPGAUSS_SUITE_BUDGET=3000 DPGAUSS_LIMIT_TESTS=300 DPGAUSS_LIMIT_BENCH=600 DPGAUSS_LIMIT_DATA=120 \
  DPGAUSS_LIMIT_MECH_SMALL_GPU=120 DPGAUSS_LIMIT_MECH_SMALL_CPU=120 DPGAUSS_LIMIT_MECH_LARGE_GPU=600 \
  DPGAUSS_LIMIT_MECH_LARGE_CPU=600 \
  bash bench/gpu-bundle/target/dpgauss-gpu-bundle/run-gpu-suite.sh $TMP/out
echo "suite exit $?"
echo "end $(date -u +%FT%TZ) load: $(cat /proc/loadavg)"
