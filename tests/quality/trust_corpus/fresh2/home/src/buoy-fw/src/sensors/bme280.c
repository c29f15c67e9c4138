/* BME280 on I2C, address 0x76 */
#include "bme280.h"
