#include "calu_thread.h"

__thread struct calu_thread_record calu_thread_storage;
