#include "config.h"
#include "lora.h"

void app_main(void)
{
    lora_init();
    sample_and_send();
    deep_sleep(SAMPLE_INTERVAL_S);
}
