# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil -*-
"""Minimal stand-in for the module machinery of ns-3.35's src/wscript and contrib/wscript.

The trimmed ns-3.35 tarball in ../shared/ns-3-sources/ lacks those two files (a full
ns-3.35 release has them; users of a full tree never need this). .ci/ci-tree-check.sh
copies this file and the two small wscript files next to it into the unpacked tree. It
implements only what the top-level wscript and the module wscripts of the trimmed tree
(and ours) use: module discovery and --enable-modules, bld.create_ns3_module, the
'ns3header' and 'ns3moduleheader' features (headers copied to build/ns3/) and shared
libraries in build/lib/. No python bindings, pkg-config files, tests or static builds.
"""
import os
import shutil
import types

from waflib import Context, Task, TaskGen
from waflib.Errors import WafError

import wutils


def module_dirs(top):
    """The sub-directories of `top` that hold a wscript, sorted."""
    if not os.path.isdir(top):
        return []
    return sorted(d for d in os.listdir(top)
                  if not d.startswith('.') and os.path.isfile(os.path.join(top, d, 'wscript')))


def configure_modules(conf, modules, env_name):
    for module in modules:
        conf.recurse(module, mandatory=False)
    conf.env[env_name] = ['ns3-' + m for m in modules]
    libdir = os.path.join(os.path.abspath(conf.bldnode.abspath()), 'lib')
    if libdir not in conf.env['NS3_MODULE_PATH']:
        conf.env.append_value('NS3_MODULE_PATH', libdir)


def create_ns3_module(bld, name, dependencies=(), test=False):
    module = bld(features='cxx cxxshlib ns3module')
    module.target = '%s/lib/ns%s-%s%s' % (bld.srcnode.path_from(module.path), wutils.VERSION,
                                          name, bld.env.BUILD_SUFFIX)
    module.name = 'ns3-' + name
    module.use = ['ns3-' + dep for dep in dependencies]
    module.uselib = ''
    module.module_deps = list(dependencies)
    module.dependencies = dependencies
    module.is_ns3_module = True
    module.test = test
    module.vnum = wutils.VNUM
    module.install_path = '${LIBDIR}'
    module.ns3_dir_location = bld.path.path_from(bld.srcnode)
    module.env.append_value('DEFINES', 'NS3_MODULE_COMPILATION')
    module.env.append_value('INCLUDES', Context.out_dir)
    soname = module.env.cxxshlib_PATTERN % os.path.basename(module.target)
    module.env.append_value('LINKFLAGS', '-Wl,--soname=' + soname)
    return module


def create_ns3_module_test_library(bld, name):
    # A module's test library; the top-level wscript leaves it out unless tests are enabled.
    library = bld.create_ns3_module(name + '-test', [name], test=True)
    del library.is_ns3_module
    library.is_ns3_module_test_library = True
    library.module_name = 'ns3-' + name
    bld.env.append_value('NS3_MODULES_WITH_TEST_LIBRARIES', [(library.module_name, library.name)])
    return library


def no_python_bindings(bld):
    return None


def build_modules(bld, modules):
    bld.create_ns3_module = types.MethodType(create_ns3_module, bld)
    bld.create_ns3_module_test_library = types.MethodType(create_ns3_module_test_library, bld)
    bld.ns3_python_bindings = types.MethodType(no_python_bindings, bld)
    built = [m for m in modules if m not in bld.env['MODULES_NOT_BUILT']]
    bld.recurse(built)
    for module in built:
        header = bld(features='ns3moduleheader')
        header.module = module


@TaskGen.feature('ns3module', 'ns3pcfile', 'ns3testlib')
def _no_op(self):
    pass


class ns3header(Task.Task):
    """Copies one public header into build/ns3/ (or removes it, for a disabled module)."""
    before = ['cxx', 'cxxprogram', 'cxxshlib', 'gen_ns3_module_header']
    color = 'BLUE'

    def runnable_status(self):
        if self.mode == 'remove':
            return Task.RUN_ME if os.path.exists(self.stale.abspath()) else Task.SKIP_ME
        return super().runnable_status()

    def uid(self):
        return (self.__class__.__name__ + self.mode + self.stale.abspath()).encode()

    def run(self):
        if self.mode == 'remove':
            os.remove(self.stale.abspath())
            return 0
        shutil.copyfile(self.inputs[0].abspath(), self.outputs[0].abspath())
        return 0


def _headers(self, subdir):
    if getattr(self, 'module', None) is None:
        raise WafError("'module' missing on %s" % self)
    ns3_dir = self.bld.path.find_or_declare(subdir)
    self.headers = sorted(set(self.to_list(self.source)))
    for filename in self.headers:
        src = self.path.find_resource(filename)
        if src is None:
            raise WafError('ns-3 header %s not found in %s' % (filename, self.path.abspath()))
        dst = ns3_dir.find_or_declare(src.name)
        task = self.create_task('ns3header')
        task.mode = getattr(self, 'mode', 'install')
        task.stale = dst
        if task.mode == 'install':
            task.set_inputs([src])
            task.set_outputs([dst])
    self.source = ''


@TaskGen.feature('ns3header')
@TaskGen.after_method('process_rule')
def apply_ns3header(self):
    _headers(self, 'ns3')


@TaskGen.feature('ns3privateheader')
@TaskGen.after_method('process_rule')
def apply_ns3privateheader(self):
    _headers(self, 'ns3/private')


class gen_ns3_module_header(Task.Task):
    """Writes build/ns3/<module>-module.h, which includes every public header of the module."""
    before = ['cxx', 'cxxprogram', 'cxxshlib']
    after = ['ns3header']
    color = 'BLUE'

    def run(self):
        guard = 'NS3_MODULE_' + self.module.upper().replace('-', '_')
        lines = ['#ifndef ' + guard, '#define ' + guard]
        lines += ['#include "%s"' % node.name for node in sorted(self.inputs, key=lambda n: n.name)]
        lines += ['#endif', '']
        self.outputs[0].write('\n'.join(lines))
        return 0


@TaskGen.feature('ns3moduleheader')
@TaskGen.after_method('process_rule')
def apply_ns3moduleheader(self):
    if getattr(self, 'mode', 'install') == 'remove':
        return
    ns3_dir = self.bld.path.find_or_declare('ns3')
    inputs = []
    for tg in self.bld.all_task_gen:
        if 'ns3header' in getattr(tg, 'features', []) and tg.module == self.module:
            tg.post()
            inputs += [ns3_dir.find_or_declare(os.path.basename(h)) for h in tg.headers]
    if not inputs:
        return
    task = self.create_task('gen_ns3_module_header')
    task.module = self.module
    task.set_inputs(inputs)
    task.set_outputs([ns3_dir.find_or_declare('%s-module.h' % self.module)])
