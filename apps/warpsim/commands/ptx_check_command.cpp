// `warpsim ptx-check`: parse and link a PTX file, then describe its kernels, functions and
// module variables with the kernels' resource usage.
#include <fmt/format.h>

#include "commands/commands.h"
#include "compiler/register_allocation.h"
#include "func/program.h"
#include "runtime/device.h"

namespace warpsim::app {

namespace {

std::string typeSuffix(ir::Type t) { return std::string(".") + ir::typeName(t); }


const char* spaceDirective(ir::Space s) {
  switch (s) {
    case ir::Space::Global: return ".global";
    case ir::Space::Const: return ".const";
    case ir::Space::Shared: return ".shared";
    default: return "?";
  }
}

std::string paramList(const std::vector<ir::Param>& params) {
  std::string out;
  for (const ir::Param& p : params) {
    if (!out.empty()) out += ", ";
    // Byte arrays (structs by value) print as .b8 name[size].
    if (p.size > ir::bytes(p.type) && ir::bytes(p.type) != 0) {
      out += fmt::format("{} {}[{}]", typeSuffix(p.type), p.name, p.size / ir::bytes(p.type));
    } else {
      out += fmt::format("{}{} {}", typeSuffix(p.type), p.isPointer ? " .ptr" : "", p.name);
    }
    out += fmt::format(" @{}", p.offset);
  }
  return out;
}

// With --allocate: every allocated function as the allocator left it.
void printAllocated(const runtime::Module& module) {
  const ir::Module& m = module.ir();
  for (uint32_t f = 0; f < m.functions.size(); ++f) {
    if (m.functions[f].isExtern) continue;
    const compiler::FunctionAllocation* a = module.allocation(f);
    if (a == nullptr) continue;
    fmt::print("\n{}", compiler::allocatedText(m, f, *a));
  }
}

}  // namespace

int checkPtx(const CheckArgs& args) {
  runtime::DeviceOptions options;
  if (args.estimate) options.resources = runtime::DeviceOptions::Resources::Estimate;
  options.mode = "functional";
  if (!args.allocate.empty()) options.sets.push_back("compiler.registers=\"" + args.allocate + "\"");
  runtime::Device device(options);
  runtime::Module module = device.loadModuleFile(args.file);
  const ir::Module& m = module.ir();

  size_t instructions = 0;
  for (const ir::Function& f : m.functions) instructions += f.code.size();
  fmt::print("{}: OK: PTX {}.{}, target sm_{}, {}-bit addresses, {} functions, {} instructions\n",
             args.file, m.versionMajor, m.versionMinor, m.smTarget, m.addressSize,
             m.functions.size(), instructions);

  for (const std::string& name : module.kernelNames()) {
    runtime::Kernel k = module.kernel(name);
    const ir::Function& f = k.function();
    const runtime::ResourceUsage& u = k.resources();
    fmt::print("\nkernel {} (line {})\n", f.name, f.line);
    fmt::print("  params ({} bytes): {}\n", f.kernelParamBytes,
               f.params.empty() ? "none" : paramList(f.params));
    fmt::print("  {} instructions, {} registers in the IR, peak {} live\n", f.code.size(),
               f.regs.size(), f.maxLiveRegs);
    fmt::print("  resources ({}{}): {} registers/thread, {} B shared/CTA (static), {} B "
               "local/thread", runtime::sourceName(u.source), u.note.empty() ? "" : ", " + u.note,
               u.registers, u.sharedBytes, u.localBytes);
    if (u.spillStoreBytes != 0 || u.spillLoadBytes != 0) {
      fmt::print(", spills {} B stored / {} B loaded", u.spillStoreBytes, u.spillLoadBytes);
    }
    fmt::print("\n");
  }
  printAllocated(module);

  bool header = false;
  for (const ir::Function& f : m.functions) {
    if (f.isEntry) continue;
    if (!header) fmt::print("\nfunctions\n");
    header = true;
    std::string rets = f.rets.empty() ? "" : fmt::format("({}) ", paramList(f.rets));
    fmt::print("  {}{}({}){}\n", rets, f.name, paramList(f.params),
               f.isExtern ? " extern" : fmt::format(": {} instructions", f.code.size()));
  }
  header = false;
  for (const ir::Symbol& s : m.symbols) {
    if (!header) fmt::print("\nmodule variables\n");
    header = true;
    std::string where;
    if (s.space == ir::Space::Global || s.space == ir::Space::Const) {
      where = fmt::format(" at 0x{:x}", module.symbolAddress(s.name));
    }
    fmt::print("  {} {} {}: {} bytes{}{}\n", spaceDirective(s.space), typeSuffix(s.elemType),
               s.name, s.size, s.isDynamicShared ? " (dynamic)" : "", where);
  }
  return 0;
}

}  // namespace warpsim::app
