#pragma once

#define FW_VERSION "2.3.0"
#define SAMPLE_INTERVAL_S 600
#define WIND_AVERAGE_S 60
