import{compile}from"./engine.js";import{solveFrom}from"./search.js";let board=null,lastLevel="";self.onmessage=(e)=>{const{id,level,state,budget}=e.data,t0=performance.now();let res;try{const text=JSON.stringify(level);if(text!==lastLevel){board=compile(level);lastLevel=text;}
res=solveFrom(board,{pos:Array.from(state.pos),flags:Array.from(state.flags)},budget);}catch{res={outcome:"error",states:0};}
self.postMessage({id,...res,ms:Math.round(performance.now()-t0)});};
