// tcfuzz: the command-line tool (suites/cli/main.cc says what each command takes).
#include "suites/cli/run_cli.h"

int main(int argc, char** argv) { return tcfuzz::cli::RunCli(argc, argv); }
