#include "lora.h"

/* SX1262 on SPI2, EU868, SF9, 125 kHz */
void lora_init(void)
{
}
