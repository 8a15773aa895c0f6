// switchyardd: see daemon.h.
#include "daemon.h"

int main(int argc, char *argv[])
{
    return Switchyard::runDaemon(argc, argv);
}
