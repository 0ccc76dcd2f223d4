// Preload (node --require): the keychain binding fails to load with dlopen's own words, as on a machine
// without libsecret-1-0; every other native module loads as usual.
const realDlopen = process.dlopen;
process.dlopen = function dlopen(module, filename, ...rest) {
  if (/keytar/i.test(String(filename))) {
    throw new Error(`libsecret-1.so.0: cannot open shared object file: No such file or directory`);
  }
  return realDlopen.call(this, module, filename, ...rest);
};
