/* Pulses counted by the ULP while the main core sleeps. */
#include "anemometer.h"
