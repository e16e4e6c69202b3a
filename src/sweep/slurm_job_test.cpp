#include "sweep/slurm_job.h"

#include <gtest/gtest.h>

#include "sweep/error.h"
#include "sweep/out_dir.h"

namespace warpsim::sweep {
namespace {

TEST(SlurmJob, ChunksAndTaskFile) {
  const auto tasks = chunkTasks({"a", "b", "c", "d", "e"}, 2);
  EXPECT_EQ(tasks, (std::vector<std::vector<std::string>>{{"a", "b"}, {"c", "d"}, {"e"}}));
  EXPECT_EQ(tasksText(tasks), "a b\nc d\ne\n");
  const std::string path = ::testing::TempDir() + "/tasks.txt";
  writeFileAtomically(path, tasksText(tasks));
  EXPECT_EQ(readTask(path, 1), (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(readTask(path, 2), (std::vector<std::string>{"e"}));
  try {
    readTask(path, 3);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "sweep: " + path + ": no task 3 (the job has 3)");
  }
}

TEST(SlurmJob, ScriptRunsOneTaskPerArrayIndex) {
  SlurmOptions o;
  o.partition = "gpu";
  o.time = "01:00:00";
  o.mem = "4G";
  o.cpusPerTask = 2;
  o.maxParallel = 10;
  o.chunk = 3;
  o.extra = {"--account=arch"};
  const JobScript job{"gs-small", "/opt/warpsim bin/warpsim", "/scratch/out", "/home/me", 7};
  EXPECT_EQ(jobScript(job, o),
            "#!/bin/sh\n"
            "# warpsim sweep 'gs-small': 7 array tasks of up to 3 points (DIR/slurm/tasks.txt).\n"
            "#SBATCH --job-name=warpsim-sweep-gs-small\n"
            "#SBATCH --array=0-6%10\n"
            "#SBATCH --output=/scratch/out/slurm/task-%A_%a.out\n"
            "#SBATCH --chdir=/home/me\n"
            "#SBATCH --cpus-per-task=2\n"
            "#SBATCH --partition=gpu\n"
            "#SBATCH --time=01:00:00\n"
            "#SBATCH --mem=4G\n"
            "#SBATCH --account=arch\n"
            "exec '/opt/warpsim bin/warpsim' sweep point /scratch/out --task "
            "\"$SLURM_ARRAY_TASK_ID\" --jobs 2\n");
  SlurmOptions plain;
  const std::string s = jobScript(JobScript{"x", "/w", "/o", "/c", 1}, plain);
  EXPECT_NE(s.find("#SBATCH --array=0-0\n"), std::string::npos);
  EXPECT_EQ(s.find("--partition"), std::string::npos);
}

TEST(SlurmJob, PathsThatCannotGoIntoSbatchLinesAreRefused) {
  try {
    jobScript(JobScript{"x", "/w", "/my out", "/c", 1}, SlurmOptions{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "sweep: the output directory '/my out' cannot go into an #SBATCH line "
                           "(no whitespace or '%' allowed)");
  }
}

}  // namespace
}  // namespace warpsim::sweep
