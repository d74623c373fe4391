/* core/cli/main.c — the mppnet binary: everything is in core/cli/cli.c. */
#include "core/cli/cli.h"

int main(int argc, char **argv) { return mpp_cli_main(argc, argv); }
