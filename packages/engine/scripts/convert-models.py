#!/usr/bin/python3
"""Convert Human's face models (TensorFlow.js graph models) to ONNX for onnxruntime-node.

Usage (from the repository root, after `npm ci`):
    /usr/bin/python3 packages/engine/scripts/convert-models.py

Requirements: Python 3 with `onnx` (>= 1.12) and `numpy`; on Debian: `apt-get install python3-onnx`
(Debian's /usr/bin/python3 then has both). No TensorFlow, no tf2onnx, no network. Reads
node_modules/@vladmandic/human/models/{blazeface,facemesh,iris,emotion}.json + .bin and writes
packages/engine/models/<name>.onnx, which are committed: nothing is converted at install or run time.
A model with PReLU (the mesh and the iris model) is also written as <name>.web.onnx for onnxruntime-web, the
respondent's browser (decision 071): the same network with each PReLU as one PRelu operation instead of the five
operations of the server's file (the same outputs, bit for bit, without the server's NCHWc layout, which the
WebAssembly build does not have).
Run it again only when @vladmandic/human's models change, then run the equivalence test
(packages/engine/src/node/onnx-models.test.ts), which compares each model with tfjs on real faces.

The graphs are small convolutional networks; only the operations they use are mapped. TensorFlow
works in NHWC; ONNX convolutions want NCHW, so the input is transposed once, the whole network runs
in NCHW (weights transposed here), and any 4-D output or reshape goes back to NHWC so the converted
model takes and returns exactly what the tfjs model does.
"""

import base64
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
SOURCE = os.path.join(ROOT, 'node_modules', '@vladmandic', 'human', 'models')
TARGET = os.path.join(ROOT, 'packages', 'engine', 'models')
MODELS = ['blazeface', 'facemesh', 'iris', 'emotion']
OPSET = 13
TO_NCHW = [0, 3, 1, 2]
TO_NHWC = [0, 2, 3, 1]
NHWC_AXIS_IN_NCHW = {0: 0, 1: 2, 2: 3, 3: 1, -1: 1}


def read_weights(model_dir, manifest):
    """The .bin shards in manifest order, decoded (float16 and uint8 quantisation included)."""
    weights = {}
    for group in manifest:
        data = b''.join(open(os.path.join(model_dir, p), 'rb').read() for p in group['paths'])
        offset = 0
        for w in group['weights']:
            shape = w['shape']
            count = int(np.prod(shape)) if shape else 1
            q = w.get('quantization')
            if q:
                qtype = np.dtype(q['dtype'])
                raw = np.frombuffer(data, qtype, count, offset)
                offset += count * qtype.itemsize
                if q['dtype'] == 'float16':
                    value = raw.astype(np.float32)
                else:
                    value = raw.astype(np.float32) * q['scale'] + q['min']
            else:
                dtype = np.dtype({'float32': np.float32, 'int32': np.int32}[w['dtype']])
                value = np.frombuffer(data, dtype, count, offset)
                offset += count * dtype.itemsize
            weights[w['name']] = value.reshape(shape)
    return weights


def attr_list(node, key):
    return [int(i) for i in node.get('attr', {}).get(key, {}).get('list', {}).get('i', [])]


def attr_str(node, key):
    s = node.get('attr', {}).get(key, {}).get('s')
    return base64.b64decode(s).decode() if s else None


def attr_strs(node, key):
    return [base64.b64decode(s).decode() for s in node.get('attr', {}).get(key, {}).get('list', {}).get('s', [])]


class Converter:
    def __init__(self, name, web=False):
        self.name = name
        self.web = web  # PReLU as PRelu (onnxruntime-web) rather than as ReLUs (onnxruntime-node's NCHWc layout)
        self.has_prelu = False
        spec = json.load(open(os.path.join(SOURCE, name + '.json')))
        self.nodes = spec['modelTopology']['node']
        self.weights = read_weights(SOURCE, spec['weightsManifest'])
        self.onnx_nodes = []
        self.initializers = []
        self.nchw = set()  # tensor names currently in NCHW layout
        self.counter = 0
        self.alias = {}  # tfjs tensor name -> ONNX tensor name where they differ

    def fresh(self, base):
        self.counter += 1
        return f'{base}__{self.counter}'

    def const(self, base, array):
        name = self.fresh(base)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def add(self, op, inputs, output, **attrs):
        self.onnx_nodes.append(helper.make_node(op, inputs, [output], name=self.fresh(op), **attrs))
        return output

    def nhwc(self, tensor):
        """The tensor in TensorFlow's layout (transposed back if the network holds it as NCHW)."""
        if tensor not in self.nchw:
            return tensor
        return self.add('Transpose', [tensor], self.fresh(tensor + '_nhwc'), perm=TO_NHWC)

    def src(self, name):
        name = name.split(':')[0].lstrip('^')
        return self.alias.get(name, name)

    def conv(self, node, depthwise):
        x, w = (self.src(i) for i in node['input'][:2])
        kernel = self.weights[w]  # HWIO, or H W C M for depthwise
        strides = attr_list(node, 'strides')[1:3]
        dilations = attr_list(node, 'dilations')[1:3] or [1, 1]
        padding = attr_str(node, 'padding')
        if padding not in ('SAME', 'VALID'):
            raise ValueError(f'{node["name"]}: padding {padding} not supported')
        if depthwise:
            h, k, c, m = kernel.shape
            weight = kernel.reshape(h, k, c * m, 1).transpose(2, 3, 0, 1)
            group = c
        else:
            weight = kernel.transpose(3, 2, 0, 1)
            group = 1
        inputs = [x, self.const(w, np.ascontiguousarray(weight, np.float32))]
        fused = attr_strs(node, 'fused_ops') if node['op'] == '_FusedConv2D' else []
        extra = [self.src(i) for i in node['input'][2:]]
        if fused and fused[0] == 'BiasAdd':
            inputs.append(self.const(extra[0], self.weights[extra[0]].astype(np.float32).reshape(-1)))
            fused = fused[1:]
            extra = extra[1:]
        elif fused:
            raise ValueError(f'{node["name"]}: fused ops {fused} not supported')
        out = node['name']
        conv_out = out if not fused else self.fresh(out + '_conv')
        self.add(
            'Conv',
            inputs,
            conv_out,
            kernel_shape=list(kernel.shape[:2]),
            strides=strides,
            dilations=dilations,
            group=group,
            auto_pad='SAME_UPPER' if padding == 'SAME' else 'VALID',
        )
        if fused == ['Relu']:
            self.add('Relu', [conv_out], out)
        elif fused == ['Prelu']:
            self.prelu(conv_out, extra[0], out)
        elif fused:
            raise ValueError(f'{node["name"]}: fused ops {fused} not supported')
        self.nchw.add(out)

    def prelu(self, x, alpha_name, out):
        """PRelu as Relu(x) + (-alpha) * Relu(-x): the same value for every x (one of the two terms is zero, each
        product is the one PRelu rounds), in operations onnxruntime's NCHWc layout runs without leaving it (a
        PRelu there cost two layout copies and a slow broadcast: 60% of the face mesh's and the iris model's
        time, decision 058). For onnxruntime-web (`web`), which has no NCHWc layout, one PRelu: a single pass
        over the tensor instead of five, the same values (decision 071)."""
        self.has_prelu = True
        alpha = self.weights[alpha_name].astype(np.float32).reshape(-1, 1, 1)
        if self.web:
            self.add('PRelu', [x, self.const(alpha_name, alpha)], out)
            return
        positive = self.add('Relu', [x], self.fresh(out + '_pos'))
        minus_one = self.const(alpha_name + '_minus_one', np.full_like(alpha, -1))
        negated = self.add('Mul', [x, minus_one], self.fresh(out + '_neg'))
        negative = self.add('Relu', [negated], self.fresh(out + '_negrelu'))
        scaled = self.add('Mul', [negative, self.const(alpha_name, -alpha)], self.fresh(out + '_scaled'))
        self.add('Add', [positive, scaled], out)

    def convert_node(self, node):
        op = node['op']
        name = node['name']
        inputs = [self.src(i) for i in node.get('input', []) if not i.startswith('^')]
        if op == 'Const':
            return
        if op == 'Placeholder':
            self.input_name = name
            self.input_shape = [int(d['size']) for d in node['attr']['shape']['shape']['dim']]
            self.alias[name] = self.add('Transpose', [name], name + '__nchw', perm=TO_NCHW)
            self.nchw.add(name + '__nchw')
        elif op in ('Conv2D', '_FusedConv2D'):
            self.conv(node, depthwise=False)
        elif op in ('DepthwiseConv2dNative', 'FusedDepthwiseConv2dNative'):
            self.conv(node, depthwise=True)
        elif op in ('AddV2', 'Add'):
            a, b = inputs
            if (a in self.nchw) != (b in self.nchw):
                raise ValueError(f'{name}: mixed layouts')
            self.add('Add', [a, b], name)
            if a in self.nchw:
                self.nchw.add(name)
        elif op in ('Relu', 'Sigmoid'):
            self.add(op, inputs, name)
            if inputs[0] in self.nchw:
                self.nchw.add(name)
        elif op == 'Prelu':
            self.prelu(inputs[0], inputs[1], name)
            self.nchw.add(name)
        elif op == 'MaxPool':
            padding = attr_str(node, 'padding')
            self.add(
                'MaxPool',
                inputs,
                name,
                kernel_shape=attr_list(node, 'ksize')[1:3],
                strides=attr_list(node, 'strides')[1:3],
                auto_pad='SAME_UPPER' if padding == 'SAME' else 'VALID',
            )
            self.nchw.add(name)
        elif op == 'Pad':
            p = self.weights[inputs[1]]  # [4, 2] NHWC (before, after)
            order = [0, 3, 1, 2]
            pads = [int(p[i][0]) for i in order] + [int(p[i][1]) for i in order]
            self.add('Pad', [inputs[0], self.const(name + '_pads', np.array(pads, np.int64))], name, mode='constant')
            self.nchw.add(name)
        elif op == 'Reshape':
            shape = self.weights[inputs[1]].astype(np.int64)
            self.add('Reshape', [self.nhwc(inputs[0]), self.const(name + '_shape', shape)], name)
        elif op == 'ConcatV2':
            *parts, axis_name = inputs
            axis = int(self.weights[axis_name])
            if all(p in self.nchw for p in parts):
                self.add('Concat', parts, name, axis=NHWC_AXIS_IN_NCHW[axis])
                self.nchw.add(name)
            else:
                self.add('Concat', [self.nhwc(p) for p in parts], name, axis=axis)
        elif op == 'Mean':
            axes = [int(a) for a in np.atleast_1d(self.weights[inputs[1]])]
            keep = node.get('attr', {}).get('keep_dims', {}).get('b', False)
            if inputs[0] in self.nchw:
                if keep:
                    raise ValueError(f'{name}: keep_dims on NCHW not supported')
                axes = [NHWC_AXIS_IN_NCHW[a] for a in axes]
            self.add('ReduceMean', [inputs[0]], name, axes=axes, keepdims=1 if keep else 0)
        elif op == 'Softmax':
            self.add('Softmax', [self.nhwc(inputs[0])], name, axis=-1)
        elif op == 'Identity':
            self.add('Identity', [self.nhwc(inputs[0])], name)
            self.outputs.append(name)
        else:
            raise ValueError(f'{name}: operation {op} not supported')

    def convert(self):
        self.outputs = []
        for node in self.nodes:
            self.convert_node(node)
        # tfjs writes a free batch size as -1: a named dimension here, so eyes and shifts run in one batch.
        batch_free = ['batch' if d < 0 else d for d in self.input_shape]
        graph = helper.make_graph(
            self.onnx_nodes,
            self.name,
            [helper.make_tensor_value_info(self.input_name, TensorProto.FLOAT, batch_free)],
            [helper.make_value_info(o, helper.make_tensor_type_proto(TensorProto.FLOAT, None)) for o in sorted(self.outputs)],
            self.initializers,
        )
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid('', OPSET)],
            producer_name='emolens convert-models.py',
            doc_string=f'Converted from @vladmandic/human models/{self.name}.json (NHWC in and out)',
        )
        model.ir_version = 7
        # Declare the output shapes for readers of the file.
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        model.graph.ClearField('output')
        model.graph.output.extend(inferred.graph.output)
        onnx.checker.check_model(model)
        return model


def main():
    os.makedirs(TARGET, exist_ok=True)
    for name in sys.argv[1:] or MODELS:
        server = Converter(name)
        variants = [(name + '.onnx', server.convert())]
        if server.has_prelu:
            variants.append((name + '.web.onnx', Converter(name, web=True).convert()))
        for file, model in variants:
            path = os.path.join(TARGET, file)
            onnx.save(model, path)
            outputs = ', '.join(o.name for o in model.graph.output)
            print(f'{file}: {len(model.graph.node)} nodes, {os.path.getsize(path)} bytes -> {path} (outputs {outputs})')


if __name__ == '__main__':
    main()
